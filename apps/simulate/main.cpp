// frost_simulate: test and demo data with known ground truth (phantoms, projections, movies).
#include <cmath>
#include <cstdio>
#include <iostream>

#include "frost/cli/program.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/eer_metadata.hpp"
#include "frost/io/eer_writer.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/mrc_writer.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/particles.hpp"
#include "frost/simulate/eer_movie.hpp"
#include "frost/simulate/movie.hpp"
#include "frost/simulate/phantom.hpp"
#include "frost/simulate/projections.hpp"
#include "frost/simulate/truth_metadata.hpp"

namespace frost {
namespace {

/// The most one output file of frost_simulate may hold: test and demo data, several times a
/// real movie; checked from the options before anything is allocated.
constexpr double kMaxOutputBytes = 32.0 * 1024 * 1024 * 1024; // a 2048^3 phantom
/// Voxel updates of the blob phantom (about a tenth of blobs x box^3): bounded so that a large
/// --blobs with a large --box is refused rather than rendered for hours.
constexpr double kMaxBlobVoxels = 4e11;

std::string gib(double bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return b;
}

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
                "                      (and the same counts as EER raw frames with --eer_group -> <oroot>.eer)\n"
                "Deterministic for a given --seed.") {}

protected:
  void define(cli::Params& p) override {
    p.choice("--mode", "projections", {"phantom", "projections", "movie"}, "what to simulate").in_section("Output");
    p.text_required("--oroot", "output root name; files are <oroot>.mrc/.mrcs/.star/...").meta("root").in_section("Output");
    p.integer("--seed", 1, "random seed").at_least(0).in_section("Output");
    p.real("--sampling", 1.0, "pixel size [A/px]").alias("--sampling_rate").range(1e-3, 1e3).in_section("Output");
    p.flag("--float16", "write images as MRC mode 12 (half precision) instead of float32").in_section("Output");

    p.text_optional("--volume", "project this map instead of a blob phantom").meta("map.mrc").in_section("Volume")
        .input_file();
    p.integer("--box", 64, "phantom box size [px]").range(8, 2048).in_section("Volume");
    p.integer("--blobs", 40, "number of Gaussian blobs in the phantom").range(1, 100000).in_section("Volume");

    p.integer("--count", 100, "number of projections").alias("-n").range(1, 100000000).in_section("Projections");
    p.text_optional("--angles_from", "take poses and shifts from this STAR/XMD file instead of drawing them")
        .meta("poses.star").in_section("Projections").input_file();
    p.flag("--missing_angles_zero", "--angles_from: a missing angle column means 0 for every particle; without "
                                    "it such a file is an error").alias("--missing-angles-zero").in_section("Projections");
    p.real("--max_shift", 0.0, "displacements uniform in [-max, max]^2 [px]").range(0, 1e4).in_section("Projections");
    p.real("--snr", 0.0, "signal-to-noise ratio var(signal)/var(noise), 1e-6 to 1e6; 0 = no noise")
        .range(0, 1e6).in_section("Projections");
    p.flag("--ctf", "multiply by a CTF with random defocus (written to the metadata)").in_section("Projections");
    p.reals("--defocus_range", {10000, 30000}, "defocus U range [A]").in_section("Projections");
    p.real("--voltage", 300, "acceleration voltage [kV]").range(1, 3000).in_section("Projections");
    p.real("--cs", 2.7, "spherical aberration [mm]").range(0, 100).in_section("Projections");
    p.real("--q0", 0.1, "amplitude contrast").range(0, 0.99).in_section("Projections");

    p.integers("--size", {1024, 1024}, "movie frame size x y [px]").in_section("Movie");
    p.integer("--frames", 20, "number of frames").range(1, 100000).in_section("Movie");
    p.choice("--trajectory", "T1", {"none", "T1", "T2", "T3"},
             "motion: T1 settling drift, T2 fast linear drift, T3 drift + doming (local)").in_section("Movie");
    p.real("--time_constant", 4.0, "settling time constant of T3 [frames]").range(0.1, 1e4).in_section("Movie");
    p.real("--dose", 1.0, "mean electrons per pixel per frame").range(1e-6, sim::kMaxDose).in_section("Movie");
    p.real("--contrast", 0.1, "specimen contrast c: counts = dose * max(0, 1 + c*S)").range(0, sim::kMaxContrast)
        .in_section("Movie");
    p.real("--hf", 0.0, "weight h of the high-frequency specimen band").range(0, sim::kMaxHighFrequency)
        .in_section("Movie");
    p.flag("--noise_free", "write expected counts (dose 1) instead of Poisson draws").in_section("Movie");
    p.flag("--gain", "apply a random multiplicative gain and write it as <oroot>_gain.mrc").in_section("Movie");
    p.integer("--eer_group", 0,
              "also write the movie as <oroot>.eer: every frame split into this many raw EER frames (7-bit runs, "
              "compression 65001) with random sub-pixel positions, so --eer-group G renders the frames exactly; 0: none")
        .range(0, 10000)
        .in_section("Movie");
  }

  /// Every size is bounded before anything is allocated: by its option's range, and here by
  /// the size of the files and the work it implies (usage errors naming the options).
  void validate() override {
    const auto size = params().get_ints("--size");
    if (size.size() != 2 || size[0] < 16 || size[1] < 16 || size[0] > 65536 || size[1] > 65536)
      throw_usage_error("--size: need two values from 16 to 65536");
    const auto df = params().get_reals("--defocus_range");
    if (df.size() != 2 || df[0] > df[1] || df[0] < 0 || df[1] > 1e6)
      throw_usage_error("--defocus_range: need 0 <= min <= max <= 1e6 A");
    const double snr = params().get_real("--snr");
    if (snr != 0 && snr < 1e-6) throw_usage_error("--snr: 0 (no noise) or from 1e-6 to 1e6");
    const std::string mode = params().get_text("--mode");
    const double box = static_cast<double>(params().get_int("--box"));
    const bool phantom = mode == "phantom" || (mode == "projections" && !params().given("--volume"));
    if (phantom) {
      if (box * box * box * 4 > kMaxOutputBytes)
        throw_usage_error("--box " + params().get_text("--box") + ": the phantom would be " + gib(box * box * box * 4) +
                          ", more than frost_simulate writes (" + gib(kMaxOutputBytes) + ")");
      const double blobs = static_cast<double>(params().get_int("--blobs"));
      if (0.1 * blobs * box * box * box > kMaxBlobVoxels)
        throw_usage_error("--blobs " + params().get_text("--blobs") + " with --box " + params().get_text("--box") +
                          ": too much work for a phantom; use fewer blobs or a smaller box");
    }
    if (mode == "projections" && !params().given("--volume") && !params().given("--angles_from"))
      check_stack_bytes(static_cast<double>(params().get_int("--count")), box, "--count");
    if (mode == "projections" && !params().given("--volume") && params().get_real("--max_shift") > box)
      throw_usage_error("--max_shift " + params().get_text("--max_shift") + " is larger than the box (" +
                        params().get_text("--box") + " px)");
    if (mode == "movie") {
      const double bytes = double(size[0]) * double(size[1]) * double(params().get_int("--frames")) * 4;
      if (bytes > kMaxOutputBytes)
        throw_usage_error("--size " + std::to_string(size[0]) + " " + std::to_string(size[1]) + " with --frames " +
                          params().get_text("--frames") + ": the movie would be " + gib(bytes) +
                          ", more than frost_simulate writes (" + gib(kMaxOutputBytes) + ")");
      if (params().get_int("--eer_group") > 0 && params().flag_value("--noise_free"))
        throw_usage_error("--eer_group needs whole counts; --noise_free writes expected counts");
      if (params().get_int("--eer_group") > 0 && params().flag_value("--gain"))
        throw_usage_error("--eer_group with --gain: an EER gain is a count image by convention, not frost_simulate's "
                          "multiplicative gain; simulate the EER movie without --gain");
    }
  }

  /// Every file the mode writes from --oroot; --volume and --angles_from are inputs.
  void add_run_files(RunFiles& files) const override {
    const std::string mode = params().get_text("--mode");
    if (mode == "phantom") {
      files.output("the phantom", oroot() + ".mrc");
    } else if (mode == "projections") {
      if (!params().given("--volume")) files.output("the phantom", oroot() + "_phantom.mrc");
      files.output("the projection stack", oroot() + ".mrcs");
      files.output("the RELION metadata", oroot() + ".star");
      files.output("the Xmipp metadata", oroot() + ".xmd");
    } else {
      files.output("the movie", oroot() + ".mrcs");
      if (params().flag_value("--gain")) files.output("the gain", oroot() + "_gain.mrc");
      if (params().get_int("--eer_group") > 0) files.output("the EER movie", oroot() + ".eer");
      files.output("the truth metadata", oroot() + "_truth.star");
    }
  }

  int run() override {
    // The files of a run appear together, or none of them (an error or a kill before the end).
    OutputSet outputs;
    const std::string mode = params().get_text("--mode");
    if (mode == "phantom") run_phantom();
    else if (mode == "projections") run_projections();
    else run_movie();
    outputs.commit();
    return finish();
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

  void run_phantom() {
    auto o = image_options();
    o.content = io::Content::Volume;
    write(oroot() + ".mrc", phantom(), o);
  }

  /// A stack of `count` images of `box`^2 pixels must fit the output limit (`option` is named).
  static void check_stack_bytes(double count, double box, const std::string& option) {
    const double bytes = count * box * box * 4;
    if (bytes > kMaxOutputBytes)
      throw_usage_error(option + ": " + std::to_string(static_cast<long long>(count)) + " projections of " +
                        std::to_string(static_cast<long long>(box)) + " px would be " + gib(bytes) +
                        ", more than frost_simulate writes (" + gib(kMaxOutputBytes) + ")");
  }

  std::vector<sim::ParticleTruth> particles_from_file(const std::string& path) const;

  void run_projections() {
    Image<float> volume;
    if (params().given("--volume")) {
      volume = io::read_volume(params().get_text("--volume")).image;
      const double box = static_cast<double>(volume.shape().x);
      if (params().get_real("--max_shift") > box)
        throw_usage_error("--max_shift " + params().get_text("--max_shift") + " is larger than the box of --volume (" +
                          std::to_string(volume.shape().x) + " px)");
      if (!params().given("--angles_from"))
        check_stack_bytes(static_cast<double>(params().get_int("--count")), box, "--count with --volume");
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
      check_stack_bytes(static_cast<double>(particles.size()), static_cast<double>(volume.shape().x),
                        "--angles_from (" + std::to_string(particles.size()) + " particles)");
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
  }

  void run_movie() {
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
    if (const index_t group = params().get_int("--eer_group"); group > 0) {
      sim::EerSplit split;
      split.group = group;
      split.seed = m.seed;
      io::EerWriteOptions eer; // 65001: 7-bit runs, 4-bit symbols, BigTIFF
      split.encoding = io::eer_write_encoding(eer);
      double electrons = 0;
      for (index_t i = 0; i < movie.frames.size(); ++i) electrons += movie.frames.data()[i];
      eer.metadata = io::eer_metadata_xml(m.frames * group, m.nx, m.ny,
                                          electrons / (static_cast<double>(m.nx) * static_cast<double>(m.ny)), m.pixel_size);
      io::write_eer_tiff(oroot() + ".eer", sim::split_into_eer_frames(movie.frames, split), m.nx, m.ny, eer);
      written_.push_back(oroot() + ".eer  (" + std::to_string(m.frames * group) + " raw EER frames, " +
                         std::to_string(group) + " per frame)");
    }
    sim::movie_truth_star(movie, m, oroot() + ".mrcs").write(oroot() + "_truth.star");
    written_.push_back(oroot() + "_truth.star  (true per-frame shifts" +
                       std::string(movie.trajectory.is_local() ? " and local displacements)" : ")"));
  }

  int finish() const {
    std::cout << "frost_simulate wrote:\n";
    for (const auto& w : written_) std::cout << "  " << w << "\n";
    return 0;
  }

  std::vector<std::string> written_;
};

// Poses from an existing particle file, read as the reconstruction reads them (any dialect,
// Xmipp's legacy labels, flips folded in); shifts (Xmipp shiftX px, RELION rlnOriginX px or
// rlnOriginXAngst A at --sampling) turned into displacements d = -s. A missing angle column is
// an error unless --missing_angles_zero says it means 0.
std::vector<sim::ParticleTruth> Simulate::particles_from_file(const std::string& path) const {
  const meta::MetadataFile file = meta::MetadataFile::read(path);
  const meta::Block& b = meta::particle_block(file);
  if (b.rows() == 0) throw_input_error(path, "no particles in " + b.describe());
  const meta::ParticlePoses poses = meta::particle_poses(b, std::vector<double>(b.rows(), pixel()));
  if (!poses.missing_angles.empty()) {
    if (!params().flag_value("--missing_angles_zero"))
      throw_input_error(path, meta::missing_angles_error(poses, "--missing_angles_zero"));
    std::string labels;
    for (const auto& l : poses.missing_angles) labels += " " + l;
    log_warning(path + " has no" + labels + ": written as 0 for every particle (--missing_angles_zero)");
  }
  std::vector<sim::ParticleTruth> out(b.rows());
  for (std::size_t i = 0; i < b.rows(); ++i) {
    for (double v : {poses.rot[i], poses.tilt[i], poses.psi[i], poses.shift_x[i], poses.shift_y[i]})
      if (!std::isfinite(v)) throw_input_error(path, "row " + std::to_string(i + 1) + ": non-finite angle or shift");
    out[i].pose = {poses.rot[i], poses.tilt[i], poses.psi[i]};
    out[i].dx = -poses.shift_x[i];
    out[i].dy = -poses.shift_y[i];
  }
  return out;
}

} // namespace
} // namespace frost

int main(int argc, char** argv) { return frost::Simulate().main(argc, argv); }
