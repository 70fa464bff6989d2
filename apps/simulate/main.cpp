// frost_simulate: test and demo data with known ground truth (phantoms, projections, movies).
#include <cmath>
#include <cstdio>
#include <iostream>

#include "frost/cli/program.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/mrc_writer.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/particles.hpp"
#include "frost/simulate/movie.hpp"
#include "frost/simulate/phantom.hpp"
#include "frost/simulate/projections.hpp"
#include "frost/simulate/truth_metadata.hpp"

namespace frost {
namespace {

class Simulate : public cli::Program {
public:
  Simulate()
      : Program("frost_simulate",
                "Writes test and demo data with known ground truth:\n"
                "  --mode phantom      a volume made of Gaussian blobs             -> <oroot>.mrc\n"
                "  --mode projections  projections of a phantom or --volume with known\n"
                "                      poses, shifts, CTF and noise                -> <oroot>.mrcs, .star, .xmd\n"
                "  --mode movie        a dose-fractionated movie with known global/local\n"
                "                      motion, Poisson noise and gain              -> <oroot>.mrcs, _truth.star\n"
                "Deterministic for a given --seed.") {}

protected:
  void define(cli::Params& p) override {
    p.choice("--mode", "projections", {"phantom", "projections", "movie"}, "what to simulate").in_section("Output");
    p.text_required("--oroot", "output root name; files are <oroot>.mrc/.mrcs/.star/...").meta("root").in_section("Output");
    p.integer("--seed", 1, "random seed").at_least(0).in_section("Output");
    p.real("--sampling", 1.0, "pixel size [A/px]").alias("--sampling_rate").at_least(1e-3).in_section("Output");
    p.flag("--float16", "write images as MRC mode 12 (half precision) instead of float32").in_section("Output");

    p.text_optional("--volume", "project this map instead of a blob phantom").meta("map.mrc").in_section("Volume");
    p.integer("--box", 64, "phantom box size [px]").range(8, 2048).in_section("Volume");
    p.integer("--blobs", 40, "number of Gaussian blobs in the phantom").range(1, 100000).in_section("Volume");

    p.integer("--count", 100, "number of projections").alias("-n").range(1, 100000000).in_section("Projections");
    p.text_optional("--angles_from", "take poses and shifts from this STAR/XMD file instead of drawing them")
        .meta("poses.star").in_section("Projections");
    p.real("--max_shift", 0.0, "displacements uniform in [-max, max]^2 [px]").at_least(0).in_section("Projections");
    p.real("--snr", 0.0, "signal-to-noise ratio var(signal)/var(noise); 0 = no noise").at_least(0).in_section("Projections");
    p.flag("--ctf", "multiply by a CTF with random defocus (written to the metadata)").in_section("Projections");
    p.reals("--defocus_range", {10000, 30000}, "defocus U range [A]").in_section("Projections");
    p.real("--voltage", 300, "acceleration voltage [kV]").at_least(1).in_section("Projections");
    p.real("--cs", 2.7, "spherical aberration [mm]").at_least(0).in_section("Projections");
    p.real("--q0", 0.1, "amplitude contrast").range(0, 0.99).in_section("Projections");

    p.integers("--size", {1024, 1024}, "movie frame size x y [px]").in_section("Movie");
    p.integer("--frames", 20, "number of frames").range(1, 100000).in_section("Movie");
    p.choice("--trajectory", "T1", {"none", "T1", "T2", "T3"},
             "motion: T1 settling drift, T2 fast linear drift, T3 drift + doming (local)").in_section("Movie");
    p.real("--time_constant", 4.0, "settling time constant of T3 [frames]").at_least(0.1).in_section("Movie");
    p.real("--dose", 1.0, "mean electrons per pixel per frame").at_least(1e-6).in_section("Movie");
    p.real("--contrast", 0.1, "specimen contrast c: counts = dose * max(0, 1 + c*S)").at_least(0).in_section("Movie");
    p.real("--hf", 0.0, "weight h of the high-frequency specimen band").at_least(0).in_section("Movie");
    p.flag("--noise_free", "write expected counts (dose 1) instead of Poisson draws").in_section("Movie");
    p.flag("--gain", "apply a random multiplicative gain and write it as <oroot>_gain.mrc").in_section("Movie");
  }

  void validate() override {
    const auto size = params().get_ints("--size");
    if (size.size() != 2 || size[0] < 16 || size[1] < 16) throw_usage_error("--size: need two values >= 16");
    const auto df = params().get_reals("--defocus_range");
    if (df[0] > df[1] || df[0] < 0) throw_usage_error("--defocus_range: need 0 <= min <= max");
  }

  int run() override {
    const std::string mode = params().get_text("--mode");
    if (mode == "phantom") return run_phantom();
    if (mode == "projections") return run_projections();
    return run_movie();
  }

private:
  std::string oroot() const { return params().get_text("--oroot"); }
  std::uint32_t seed() const { return static_cast<std::uint32_t>(params().get_int("--seed")); }
  double pixel() const { return params().get_real("--sampling"); }

  io::MrcWriteOptions image_options() const {
    io::MrcWriteOptions o;
    o.mode = params().flag_value("--float16") ? io::MrcMode::Float16 : io::MrcMode::Float32;
    o.pixel_size = pixel();
    o.label = "frost_simulate";
    return o;
  }

  Image<float> phantom() const {
    const int box = static_cast<int>(params().get_int("--box"));
    return sim::render_blobs(box, sim::random_blobs(box, static_cast<int>(params().get_int("--blobs")), seed()));
  }

  void write(const std::string& path, const Image<float>& img, io::MrcWriteOptions o) {
    io::write_image(path, img.cview(), o);
    written_.push_back(path + "  (" + to_string(img.shape()) + ")");
  }

  int run_phantom() {
    auto o = image_options();
    o.content = io::Content::Volume;
    write(oroot() + ".mrc", phantom(), o);
    return finish();
  }

  std::vector<sim::ParticleTruth> particles_from_file(const std::string& path) const;

  int run_projections() {
    Image<float> volume;
    if (params().given("--volume")) {
      volume = io::read_volume(params().get_text("--volume")).image;
    } else {
      volume = phantom();
      auto o = image_options();
      o.content = io::Content::Volume;
      write(oroot() + "_phantom.mrc", volume, o);
    }
    ctf::CtfParams microscope;
    microscope.voltage = params().get_real("--voltage");
    microscope.cs = params().get_real("--cs");
    microscope.amplitude_contrast = params().get_real("--q0");

    std::vector<sim::ParticleTruth> particles;
    if (params().given("--angles_from")) {
      particles = particles_from_file(params().get_text("--angles_from"));
    } else {
      sim::ParticleDraw draw;
      draw.count = static_cast<int>(params().get_int("--count"));
      draw.max_shift = params().get_real("--max_shift");
      draw.defocus_min = params().get_reals("--defocus_range")[0];
      draw.defocus_max = params().get_reals("--defocus_range")[1];
      draw.microscope = microscope;
      draw.seed = seed();
      particles = sim::random_particles(draw);
    }

    sim::ProjectionSetup setup;
    setup.pixel_size = pixel();
    setup.apply_ctf = params().flag_value("--ctf");
    const double snr = params().get_real("--snr");
    if (snr > 0) setup.snr = snr;
    setup.seed = seed() + 7919u;
    const Image<float> stack = sim::render_projections(volume.cview(), particles, setup);

    auto o = image_options();
    o.content = io::Content::Stack;
    write(oroot() + ".mrcs", stack, o);
    sim::StackFacts facts;
    facts.stack_path = oroot() + ".mrcs";
    facts.box = static_cast<int>(volume.shape().x);
    facts.pixel_size = pixel();
    facts.has_ctf = setup.apply_ctf;
    facts.microscope = microscope;
    sim::particles_star(particles, facts).write(oroot() + ".star");
    sim::particles_xmd(particles, facts).write(oroot() + ".xmd");
    written_.push_back(oroot() + ".star  (RELION 3.1, " + std::to_string(particles.size()) + " particles)");
    written_.push_back(oroot() + ".xmd  (Xmipp)");
    return finish();
  }

  int run_movie() {
    sim::MovieSetup m;
    const auto size = params().get_ints("--size");
    m.nx = static_cast<int>(size[0]);
    m.ny = static_cast<int>(size[1]);
    m.frames = static_cast<int>(params().get_int("--frames"));
    m.pixel_size = pixel();
    m.dose = params().get_real("--dose");
    m.contrast = params().get_real("--contrast");
    m.high_frequency = params().get_real("--hf");
    m.noise_free = params().flag_value("--noise_free");
    m.gain = params().flag_value("--gain");
    m.trajectory = sim::parse_trajectory(params().get_text("--trajectory"));
    m.time_constant = params().get_real("--time_constant");
    m.seed = seed();
    log_info("simulating a " + std::to_string(m.nx) + "x" + std::to_string(m.ny) + "x" + std::to_string(m.frames) +
             " movie, trajectory " + sim::trajectory_name(m.trajectory));
    const sim::SimulatedMovie movie = sim::simulate_movie(m);

    auto o = image_options();
    o.content = io::Content::Stack;
    write(oroot() + ".mrcs", movie.frames, o);
    if (m.gain) {
      auto g = image_options();
      g.content = io::Content::Image;
      write(oroot() + "_gain.mrc", movie.gain, g);
    }
    sim::movie_truth_star(movie, m, oroot() + ".mrcs").write(oroot() + "_truth.star");
    written_.push_back(oroot() + "_truth.star  (true per-frame shifts" +
                       std::string(movie.trajectory.is_local() ? " and local displacements)" : ")"));
    return finish();
  }

  int finish() const {
    std::cout << "frost_simulate wrote:\n";
    for (const auto& w : written_) std::cout << "  " << w << "\n";
    return 0;
  }

  std::vector<std::string> written_;
};

// Poses from an existing particle file: angles as they are; shifts (Xmipp shiftX px, RELION
// rlnOriginX px or rlnOriginXAngst A) turned into displacements d = -s.
std::vector<sim::ParticleTruth> Simulate::particles_from_file(const std::string& path) const {
  const meta::MetadataFile file = meta::MetadataFile::read(path);
  const meta::Block& b = meta::particle_block(file);
  const bool xmipp = b.has("angleRot");
  auto angles = [&](const char* relion, const char* xmd) { return b.doubles_or(xmipp ? xmd : relion, 0.0); };
  const auto rot = angles("rlnAngleRot", "angleRot"), tilt = angles("rlnAngleTilt", "angleTilt"),
             psi = angles("rlnAnglePsi", "anglePsi");
  std::vector<double> sx, sy;
  if (xmipp) {
    sx = b.doubles_or("shiftX", 0.0);
    sy = b.doubles_or("shiftY", 0.0);
  } else if (b.has("rlnOriginXAngst")) {
    sx = b.doubles("rlnOriginXAngst");
    sy = b.doubles("rlnOriginYAngst");
    for (auto& v : sx) v /= pixel();
    for (auto& v : sy) v /= pixel();
  } else {
    sx = b.doubles_or("rlnOriginX", 0.0);
    sy = b.doubles_or("rlnOriginY", 0.0);
  }
  std::vector<sim::ParticleTruth> out(b.rows());
  for (std::size_t i = 0; i < b.rows(); ++i) {
    out[i].pose = {rot[i], tilt[i], psi[i]};
    out[i].dx = -sx[i];
    out[i].dy = -sy[i];
  }
  if (out.empty()) throw_input_error(path, "no particles in " + b.describe());
  return out;
}

} // namespace
} // namespace frost

int main(int argc, char** argv) { return frost::Simulate().main(argc, argv); }
