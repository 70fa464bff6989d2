// Per-patch alignment (docs/movie_align.md#aligning-one-patch): the patch stack goes through the global stage
// unchanged, so sizes, filter, correlation, peaks and the robust solve are the global ones at the
// patch's own scale.
#include "frost/motion/patch_alignment.hpp"

#include "frost/core/error.hpp"
#include "frost/motion/global_alignment.hpp"

namespace frost::motion {

GlobalSettings patch_alignment_settings(const LocalSettings& settings, int reference) {
  GlobalSettings s = settings.correlation;
  s.mode = GlobalMode::Pairs;
  s.crop_frames = false; // P is already an FFT-friendly size; the whole patch is transformed
  s.reference = ReferenceRule::Index;
  s.reference_index = reference;
  return s;
}

WorkingSizes patch_working_sizes(int patch_size, const GlobalSettings& settings) {
  return working_sizes(patch_size, patch_size, settings);
}

namespace {

// The track of a patch from the alignment of its stack: L_t with the rounding correction.
PatchTrack track_from(const GlobalAlignment& a, const PatchOffsets& offsets, bool rounding_correction) {
  const std::size_t n = a.positions.size();
  FROST_EXPECTS(offsets.window_mean_residual.size() == n, "align_patch: one offset per frame");
  PatchTrack track;
  track.positions = a.positions;
  track.outliers = a.outliers;
  track.edge_pairs = a.edge_pairs;
  track.excluded_pairs = a.excluded_pairs;
  track.r2_x = a.r2_x;
  track.r2_y = a.r2_y;
  track.warnings = a.warnings;
  const auto r = static_cast<std::size_t>(a.reference);
  // The window image of frame t is displaced by the window mean of the rounding residuals (plus
  // the local motion), not by frame t's own residual: remove that mean.
  const Vec2 rho_r = rounding_correction ? offsets.window_mean_residual[r] : Vec2{};
  track.residual.resize(n);
  for (std::size_t t = 0; t < n; ++t) {
    const Vec2 rho_t = rounding_correction ? offsets.window_mean_residual[t] : Vec2{};
    track.residual[t] = {(a.positions[t].x - rho_t.x) - (a.positions[r].x - rho_r.x),
                         (a.positions[t].y - rho_t.y) - (a.positions[r].y - rho_r.y)};
  }
  return track;
}

} // namespace

PatchTrack align_patch(View<const float> stack, const PatchOffsets& offsets, const GlobalSettings& settings,
                       bool rounding_correction) {
  FROST_EXPECTS(offsets.window_mean_residual.size() == static_cast<std::size_t>(stack.shape.n),
                "align_patch: one offset per frame");
  return track_from(align_global(stack, settings), offsets, rounding_correction);
}

PatchTrack align_patch(const std::vector<PairMeasurement>& measured, int frames, const WorkingSizes& sizes,
                       const PatchOffsets& offsets, const GlobalSettings& settings, bool rounding_correction) {
  FROST_EXPECTS(offsets.window_mean_residual.size() == static_cast<std::size_t>(frames),
                "align_patch: one offset per frame");
  return track_from(align_measured_pairs(measured, frames, sizes, settings), offsets, rounding_correction);
}

} // namespace frost::motion
