#pragma once
/// @file patch_alignment.hpp
/// @brief Alignment of one patch stack (docs/movie_align.md#aligning-one-patch) and its local residual
/// displacement L_t (docs/movie_align.md#patch-stacks-and-the-rounding-correction).
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/motion/global_settings.hpp"
#include "frost/motion/local_settings.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/motion/pair_correlation.hpp"
#include "frost/motion/patch_stack.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion {

/// @brief The settings a patch stack is aligned with: the global stage's correlation settings
/// (same R, search radius in Å, sub-pixel method, pair band, outlier rounds, size rule) in pairs
/// mode, whole patch transformed, gauge at `reference` (the global reference frame).
GlobalSettings patch_alignment_settings(const LocalSettings& settings, int reference);

/// What the alignment of one patch measured.
struct PatchTrack {
  int patch = 0;
  Vec2 centre;                 ///< patch centre [processing px]
  std::vector<Vec2> positions; ///< q_t as solved from the patch stack (gauge q_0 = 0)
  /// L_t = (q_t - rho-bar_t) - (q_r - rho-bar_r): displacement of the patch relative to the
  /// global one, zero at the reference r [processing px] (without the rounding correction:
  /// q_t - q_r).
  std::vector<Vec2> residual;
  int outliers = 0, edge_pairs = 0, excluded_pairs = 0;
  double r2_x = 0, r2_y = 0;
  std::vector<std::string> warnings;
};

/// @brief Aligns the patch stack `stack` (P x P x 1 x N, from fill_patch_stack) with
/// align_global(stack, settings) and turns the solved positions into L_t. `settings` come from
/// patch_alignment_settings (their reference index is the gauge).
/// frost::Error(Usage) as align_global.
PatchTrack align_patch(View<const float> stack, const PatchOffsets& offsets, const GlobalSettings& settings,
                       bool rounding_correction);

/// @brief The same from the pair measurements of the patch stack (PatchMeasurer::measure_patches
/// of frame_pairs(N, settings.max_pair_distance) at patch_working_sizes()): align_measured_pairs,
/// then L_t. align_patch(stack, ...) is this after measuring the stack on the host.
PatchTrack align_patch(const std::vector<PairMeasurement>& measured, int frames, const WorkingSizes& sizes,
                       const PatchOffsets& offsets, const GlobalSettings& settings, bool rounding_correction);

/// The sizes a P x P patch is correlated at (docs/movie_align.md#aligning-one-patch: C_p =
/// fast/exact size >= k·P).
WorkingSizes patch_working_sizes(int patch_size, const GlobalSettings& settings);

} // namespace frost::motion
