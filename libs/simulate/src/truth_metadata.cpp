#include "frost/simulate/truth_metadata.hpp"

#include <cstdint>

#include "frost/io/image_ref.hpp"

namespace frost::sim {

namespace {

std::vector<std::string> image_names(std::size_t count, const std::string& stack) {
  std::vector<std::string> names;
  names.reserve(count);
  for (std::size_t i = 0; i < count; ++i) names.push_back(io::make_image_address(static_cast<index_t>(i), stack)); // 0-based in, 1-based out
  return names;
}

template <class F>
std::vector<double> each(const std::vector<ParticleTruth>& ps, F f) {
  std::vector<double> v;
  v.reserve(ps.size());
  for (const auto& p : ps) v.push_back(f(p));
  return v;
}

} // namespace

meta::MetadataFile particles_star(const std::vector<ParticleTruth>& ps, const StackFacts& facts) {
  meta::MetadataFile file(meta::Dialect::Relion31);
  meta::Block& optics = file.add_block("optics");
  optics.set_column("rlnOpticsGroup", std::vector<std::int64_t>{1});
  optics.set_column("rlnOpticsGroupName", std::vector<std::string>{"opticsGroup1"});
  optics.set_column("rlnImagePixelSize", std::vector<double>{facts.pixel_size});
  optics.set_column("rlnImageSize", std::vector<std::int64_t>{facts.box});
  optics.set_column("rlnImageDimensionality", std::vector<std::int64_t>{2});
  optics.set_column("rlnVoltage", std::vector<double>{facts.microscope.voltage});
  optics.set_column("rlnSphericalAberration", std::vector<double>{facts.microscope.cs});
  optics.set_column("rlnAmplitudeContrast", std::vector<double>{facts.microscope.amplitude_contrast});

  meta::Block& parts = file.add_block("particles");
  parts.set_column("rlnImageName", image_names(ps.size(), facts.stack_path));
  parts.set_column("rlnAngleRot", each(ps, [](const ParticleTruth& p) { return p.pose.rot; }));
  parts.set_column("rlnAngleTilt", each(ps, [](const ParticleTruth& p) { return p.pose.tilt; }));
  parts.set_column("rlnAnglePsi", each(ps, [](const ParticleTruth& p) { return p.pose.psi; }));
  const double px = facts.pixel_size;
  parts.set_column("rlnOriginXAngst", each(ps, [px](const ParticleTruth& p) { return p.metadata_shift_x() * px; }));
  parts.set_column("rlnOriginYAngst", each(ps, [px](const ParticleTruth& p) { return p.metadata_shift_y() * px; }));
  if (facts.has_ctf) {
    parts.set_column("rlnDefocusU", each(ps, [](const ParticleTruth& p) { return p.ctf.defocus_u; }));
    parts.set_column("rlnDefocusV", each(ps, [](const ParticleTruth& p) { return p.ctf.defocus_v; }));
    parts.set_column("rlnDefocusAngle", each(ps, [](const ParticleTruth& p) { return p.ctf.defocus_angle; }));
  }
  std::vector<std::int64_t> group(ps.size(), 1), subset(ps.size()), cls(ps.size(), 1);
  for (std::size_t i = 0; i < ps.size(); ++i) subset[i] = static_cast<std::int64_t>(i % 2 + 1);
  parts.set_column("rlnOpticsGroup", group);
  parts.set_column("rlnRandomSubset", subset);
  parts.set_column("rlnClassNumber", cls);
  return file;
}

meta::MetadataFile particles_xmd(const std::vector<ParticleTruth>& ps, const StackFacts& facts) {
  meta::MetadataFile file(meta::Dialect::Xmipp);
  meta::Block& b = file.add_block("");
  std::vector<std::int64_t> ids(ps.size()), enabled(ps.size(), 1);
  for (std::size_t i = 0; i < ps.size(); ++i) ids[i] = static_cast<std::int64_t>(i + 1);
  b.set_column("itemId", ids);
  b.set_column("image", image_names(ps.size(), facts.stack_path));
  b.set_column("enabled", enabled);
  b.set_column("angleRot", each(ps, [](const ParticleTruth& p) { return p.pose.rot; }));
  b.set_column("angleTilt", each(ps, [](const ParticleTruth& p) { return p.pose.tilt; }));
  b.set_column("anglePsi", each(ps, [](const ParticleTruth& p) { return p.pose.psi; }));
  b.set_column("shiftX", each(ps, [](const ParticleTruth& p) { return p.metadata_shift_x(); }));
  b.set_column("shiftY", each(ps, [](const ParticleTruth& p) { return p.metadata_shift_y(); }));
  b.set_column("samplingRate", std::vector<double>(ps.size(), facts.pixel_size));
  if (facts.has_ctf) {
    b.set_column("ctfDefocusU", each(ps, [](const ParticleTruth& p) { return p.ctf.defocus_u; }));
    b.set_column("ctfDefocusV", each(ps, [](const ParticleTruth& p) { return p.ctf.defocus_v; }));
    b.set_column("ctfDefocusAngle", each(ps, [](const ParticleTruth& p) { return p.ctf.defocus_angle; }));
    b.set_column("ctfVoltage", std::vector<double>(ps.size(), facts.microscope.voltage));
    b.set_column("ctfSphericalAberration", std::vector<double>(ps.size(), facts.microscope.cs));
    b.set_column("ctfQ0", std::vector<double>(ps.size(), facts.microscope.amplitude_contrast));
  }
  return file;
}

meta::MetadataFile movie_truth_star(const SimulatedMovie& movie, const MovieSetup& setup,
                                    const std::string& movie_path, int grid) {
  meta::MetadataFile file(meta::Dialect::Relion31);
  meta::Block& general = file.add_block("general", true);
  general.set_column("rlnImageSizeX", std::vector<std::int64_t>{setup.nx});
  general.set_column("rlnImageSizeY", std::vector<std::int64_t>{setup.ny});
  general.set_column("rlnImageSizeZ", std::vector<std::int64_t>{setup.frames});
  general.set_column("rlnMicrographMovieName", std::vector<std::string>{movie_path});
  general.set_column("rlnMicrographOriginalPixelSize", std::vector<double>{setup.pixel_size});
  general.set_column("rlnMicrographDoseRate", std::vector<double>{setup.noise_free ? 1.0 : setup.dose});
  general.set_column("frostTrajectory", std::vector<std::string>{trajectory_name(setup.trajectory)});
  general.set_column("frostContrast", std::vector<double>{setup.contrast});
  general.set_column("frostNoiseFree", std::vector<std::int64_t>{setup.noise_free ? 1 : 0});
  general.set_column("frostSeed", std::vector<std::int64_t>{static_cast<std::int64_t>(setup.seed)});

  const Trajectory& tr = movie.trajectory;
  double g0x, g0y;
  tr.global(0, &g0x, &g0y);
  meta::Block& global = file.add_block("global_shift");
  std::vector<std::int64_t> frame;
  std::vector<double> sx, sy, dx, dy;
  for (int t = 0; t < setup.frames; ++t) {
    double gx, gy;
    tr.global(t, &gx, &gy);
    frame.push_back(t + 1);
    sx.push_back(0.0 - (gx - g0x)); // docs/conventions.md#shifts: the shift to apply is minus the displacement
    sy.push_back(0.0 - (gy - g0y)); // (0.0 - x keeps frame 1 at +0, not -0)
    dx.push_back(gx);
    dy.push_back(gy);
  }
  global.set_column("rlnMicrographFrameNumber", frame);
  global.set_column("rlnMicrographShiftX", sx);
  global.set_column("rlnMicrographShiftY", sy);
  global.set_column("frostDisplacementX", dx);
  global.set_column("frostDisplacementY", dy);

  if (tr.is_local()) {
    // Sampled on a grid covering 10-90 % of the frame, as the movie tests measure errors
    // (docs/simulate.md#movie-ground-truth). Values are E_t(x) - E_0(x): displacement relative to frame 1.
    meta::Block& local = file.add_block("local_truth");
    std::vector<std::int64_t> lf;
    std::vector<double> px, py, ex, ey;
    for (int t = 0; t < setup.frames; ++t)
      for (int j = 0; j < grid; ++j)
        for (int i = 0; i < grid; ++i) {
          const double x = setup.nx * (0.1 + 0.8 * i / std::max(1, grid - 1));
          const double y = setup.ny * (0.1 + 0.8 * j / std::max(1, grid - 1));
          double e0x, e0y, etx, ety;
          tr.displacement(0, x, y, &e0x, &e0y);
          tr.displacement(t, x, y, &etx, &ety);
          lf.push_back(t + 1);
          px.push_back(x);
          py.push_back(y);
          ex.push_back(etx - e0x);
          ey.push_back(ety - e0y);
        }
    local.set_column("rlnMicrographFrameNumber", lf);
    local.set_column("rlnCoordinateX", px);
    local.set_column("rlnCoordinateY", py);
    local.set_column("frostDisplacementX", ex);
    local.set_column("frostDisplacementY", ey);
  }
  return file;
}

} // namespace frost::sim
