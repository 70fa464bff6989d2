#include "alignment_star.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

#include "frost/core/version.hpp"
#include "frost/metadata/value_text.hpp"
#include "frost/motion/model_star.hpp"

namespace frost::movie_align {

namespace {

/// Single-row list block setters; numbers as shortest exact decimals so they read back unchanged.
void key(meta::Block& b, const char* label, double v) {
  b.set_string(0, label, meta::format_shortest(v == 0.0 ? 0.0 : v));
}
void key_int(meta::Block& b, const char* label, long long v) { b.set_int(0, label, static_cast<std::int64_t>(v)); }
void key_text(meta::Block& b, const char* label, const std::string& v) { b.set_string(0, label, v); }

void movie_keys(meta::Block& g, const MovieFacts& f) {
  key_int(g, "rlnImageSizeX", f.raw_x);
  key_int(g, "rlnImageSizeY", f.raw_y);
  key_int(g, "rlnImageSizeZ", f.movie_frames);
  key_text(g, "rlnMicrographMovieName", f.movie);
  if (!f.gain.empty()) key_text(g, "rlnMicrographGainName", f.gain);
  key(g, "rlnMicrographOriginalPixelSize", f.pixel_size);
  if (f.dose_known) {
    key(g, "rlnMicrographDoseRate", f.dose.dose_per_frame);
    key(g, "rlnMicrographPreExposure", f.dose.pre_exposure);
    key(g, "rlnVoltage", f.dose.voltage_kv);
  }
  key_text(g, "frostVersion", version_string());
  key_int(g, "frostSumFirst", f.sum_first);
  key_int(g, "frostSumLast", f.sum_last);
  key_int(g, "frostProcessedSizeX", f.processed_x);
  key_int(g, "frostProcessedSizeY", f.processed_y);
  if (f.eer) {
    key_int(g, "frostEerUpsample", f.eer_upsampling);
    key_int(g, "frostEerGroup", f.eer_group);
  }
  key_int(g, "frostTiffFlipY", f.tiff_flip_y ? 1 : 0);
  key_int(g, "frostGainRot", f.gain_transform.rotation);
  key_int(g, "frostGainFlip", f.gain_transform.flip);
}

void global_keys(meta::Block& g, const motion::GlobalSettings& s, const motion::GlobalAlignment& a) {
  key_int(g, "frostCorrelationSizeX", a.sizes.correlation.x);
  key_int(g, "frostCorrelationSizeY", a.sizes.correlation.y);
  key_int(g, "frostTransformSizeX", a.sizes.transform.x);
  key_int(g, "frostTransformSizeY", a.sizes.transform.y);
  key(g, "frostMaxResCorr", s.max_resolution);
  key(g, "frostMaxShift", s.max_shift);
  key_text(g, "frostSubpixel", motion::to_string(s.subpixel));
  key_text(g, "frostGlobalMode", motion::to_string(s.mode));
  if (s.mode == motion::GlobalMode::Sum) key_int(g, "frostGlobalGroup", s.sum_group);
  // R² is NaN in sum mode (no pair equations): leave it out rather than write "nan".
  if (std::isfinite(a.r2_x)) key(g, "frostGlobalR2X", a.r2_x);
  if (std::isfinite(a.r2_y)) key(g, "frostGlobalR2Y", a.r2_y);
  key_int(g, "frostOutliersGlobal", a.outliers);
}

void local_keys(meta::Block& g, const motion::LocalAlignment& l) {
  key_int(g, "frostPatchesX", l.grid.x.count);
  key_int(g, "frostPatchesY", l.grid.y.count);
  key_int(g, "frostPatchSize", l.grid.size);
  key_int(g, "frostPatchCorrelationSize", l.patch_sizes.correlation.x);
  key_int(g, "frostOutliersPatchPairs", l.patch_outliers);
  if (l.fell_back) key_text(g, "frostLocalFallback", l.fallback_reason);
}

} // namespace

meta::MetadataFile alignment_star(const MovieFacts& facts, const motion::GlobalSettings& settings,
                                  const motion::GlobalAlignment& global, const motion::LocalAlignment* local,
                                  const motion::MotionModel& model) {
  meta::MetadataFile file(meta::Dialect::Relion31);
  {
    meta::Block& g = file.add_block(motion::kGeneralBlock, true);
    g.add_row();
    movie_keys(g, facts);
    global_keys(g, settings, global);
    if (local) local_keys(g, *local);
    if (local && local->fit && local->fell_back)
      key(g, "frostLocalFitRmsd", local->fit->rmsd * facts.binning); // raw px, as every length here
    for (const auto& [stage, seconds] : facts.seconds)
      key(g, ("frostTime" + stage).c_str(), std::round(seconds * 1000.0) / 1000.0);
  }
  motion::write_motion_model(file, model, facts.movie_frames);
  if (local && model.local && local->fit) motion::write_local_fit(file, model, local->measurements, *local->fit);
  if (facts.hot_pixel_detection) add_hot_pixel_block(file, facts);
  return file;
}

void add_hot_pixel_block(meta::MetadataFile& file, const MovieFacts& facts) {
  std::vector<std::int64_t> x, y;
  for (const auto& [px, py] : facts.hot_pixels) {
    x.push_back(px);
    y.push_back(py);
  }
  meta::Block& hot = file.add_block("hot_pixels");
  hot.set_column("rlnCoordinateX", x);
  hot.set_column("rlnCoordinateY", y);
}

} // namespace frost::movie_align
