#include "relion_export.hpp"

#include <cstdint>
#include <cstdio>
#include <vector>

#include "alignment_star.hpp"
#include "frost/core/log.hpp"
#include "frost/metadata/value_text.hpp"

namespace frost::movie_align {

namespace {

void add_hot_pixels(meta::MetadataFile& file, const MovieFacts& f) {
  if (f.hot_pixel_detection && !f.hot_pixels.empty()) add_hot_pixel_block(file, f);
}

/// The shift to apply of a patch relative to the global one is -L_t; re-referenced to the first
/// aligned frame it is (L_0 - L_t), scaled to raw px.
void add_local_shifts(meta::MetadataFile& file, const motion::MotionModel& model,
                      const std::vector<motion::PatchTrack>& patches) {
  const double b = model.binning;
  std::vector<std::int64_t> number;
  std::vector<std::string> cx, cy, sx, sy;
  for (const motion::PatchTrack& p : patches) {
    if (p.residual.empty()) continue;
    const motion::Vec2 l0 = p.residual.front();
    for (std::size_t t = 0; t < p.residual.size(); ++t) {
      number.push_back(model.first_frame + static_cast<std::int64_t>(t) + 1);
      cx.push_back(meta::format_shortest(p.centre.x * b));
      cy.push_back(meta::format_shortest(p.centre.y * b));
      sx.push_back(meta::format_shortest(0.0 + (l0.x - p.residual[t].x) * b));
      sy.push_back(meta::format_shortest(0.0 + (l0.y - p.residual[t].y) * b));
    }
  }
  if (number.empty()) return;
  meta::Block& block = file.add_block("local_shift");
  block.set_column("rlnMicrographFrameNumber", number);
  block.set_column("rlnCoordinateX", cx);
  block.set_column("rlnCoordinateY", cy);
  block.set_column("rlnMicrographShiftX", sx);
  block.set_column("rlnMicrographShiftY", sy);
}

} // namespace

meta::MetadataFile relion_motion_star(const MovieFacts& f, const motion::MotionModel& model,
                                      const motion::RelionPolynomial* local,
                                      const std::vector<motion::PatchTrack>* patches) {
  meta::MetadataFile file(meta::Dialect::Relion31);
  {
    meta::Block& g = file.add_block("general", true);
    g.add_row();
    g.set_int(0, "rlnImageSizeX", f.raw_x);
    g.set_int(0, "rlnImageSizeY", f.raw_y);
    g.set_int(0, "rlnImageSizeZ", f.movie_frames);
    g.set_string(0, "rlnMicrographMovieName", f.movie);
    // The references as the frames were corrected with them: RELION applies no transform of its own.
    if (!f.relion_gain.empty()) g.set_string(0, "rlnMicrographGainName", f.relion_gain);
    if (!f.relion_defects.empty()) g.set_string(0, "rlnMicrographDefectFile", f.relion_defects);
    g.set_double(0, "rlnMicrographBinning", f.binning);
    g.set_double(0, "rlnMicrographOriginalPixelSize", f.pixel_size);
    // Without a known dose, RELION's own default (1 e/A^2 per frame, its motioncorr's
    // --dose_per_frame): 0 would give polishing a dose-free damage model.
    g.set_double(0, "rlnMicrographDoseRate", f.dose_known ? f.dose.dose_per_frame : 1.0);
    g.set_double(0, "rlnMicrographPreExposure", f.dose.pre_exposure);
    g.set_double(0, "rlnVoltage", f.dose.voltage_kv);
    // RELION's polynomial time is frame - start frame, so this is its t = 0 as well.
    g.set_int(0, "rlnMicrographStartFrame", model.first_frame + 1);
    g.set_int(0, "rlnMotionModelVersion", local ? 1 : 0);
    if (f.eer) {
      g.set_int(0, "rlnEERUpsampling", f.eer_upsampling);
      g.set_int(0, "rlnEERGrouping", f.eer_group);
    }
  }
  meta::Block& shifts = file.add_block("global_shift");
  const motion::Vec2 first = model.global.front(); // RELION's reference: the first aligned frame
  std::vector<std::int64_t> number;
  std::vector<std::string> sx, sy;
  for (int frame = 0; frame < f.movie_frames; ++frame) {
    number.push_back(frame + 1);
    const int t = frame - model.first_frame;
    if (t < 0 || t >= model.frames()) {
      sx.push_back(meta::format_shortest(kRelionNotObserved));
      sy.push_back(meta::format_shortest(kRelionNotObserved));
      continue;
    }
    const motion::Vec2& s = model.global[static_cast<std::size_t>(t)];
    // 0.0 + keeps the first frame at +0 rather than -0.
    sx.push_back(meta::format_shortest(0.0 + (s.x - first.x) * model.binning));
    sy.push_back(meta::format_shortest(0.0 + (s.y - first.y) * model.binning));
  }
  shifts.set_column("rlnMicrographFrameNumber", number);
  shifts.set_column("rlnMicrographShiftX", sx);
  shifts.set_column("rlnMicrographShiftY", sy);

  if (local) { // after data_global_shift, where RELION writes it
    std::vector<std::int64_t> index;
    std::vector<std::string> value;
    for (const auto* axis : {&local->cx, &local->cy})
      for (double c : *axis) {
        index.push_back(static_cast<std::int64_t>(index.size()));
        value.push_back(meta::format_shortest(c));
      }
    meta::Block& block = file.add_block("local_motion_model");
    block.set_column("rlnMotionModelCoeffsIdx", index);
    block.set_column("rlnMotionModelCoeff", value);
  }
  add_hot_pixels(file, f);
  if (patches) add_local_shifts(file, model, *patches);
  return file;
}

std::optional<motion::RelionPolynomialFit> write_relion_motion(const std::string& path, const MovieFacts& facts,
                                                               const motion::MotionModel& model, double warn_rmsd,
                                                               const std::vector<motion::PatchTrack>* patches) {
  constexpr int kGrid = 16; // sample points per axis
  std::optional<motion::RelionPolynomialFit> fit;
  if (model.local)
    fit = motion::fit_relion_polynomial(motion::relion_polynomial_samples(
        model, static_cast<double>(facts.raw_x), static_cast<double>(facts.raw_y), kGrid));
  relion_motion_star(facts, model, fit ? &fit->polynomial : nullptr, patches).write(path);
  if (!fit) {
    log_info("wrote " + path + " (global model: _rlnMotionModelVersion 0)");
    return fit;
  }
  char rmsd[160];
  std::snprintf(rmsd, sizeof rmsd, "RMSD %.4f px (x %.4f, y %.4f)", fit->rmsd, fit->rmsd_x, fit->rmsd_y);
  log_info("wrote " + path + " (_rlnMotionModelVersion 1: third-order polynomial fitted to the local model on " +
           std::to_string(kGrid) + "x" + std::to_string(kGrid) + " points x " + std::to_string(model.frames()) +
           " frames, " + rmsd + ")");
  if (fit->rmsd > warn_rmsd)
    log_warning(std::string("the RELION polynomial follows the local B-spline model poorly: ") + rmsd +
                " exceeds --max-local-rmsd");
  return fit;
}

} // namespace frost::movie_align
