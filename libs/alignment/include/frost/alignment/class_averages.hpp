#pragma once
/// @file class_averages.hpp
/// @brief The updated references of `--oUpdatedRefs` (docs/align_significant.md#updated-references):
/// per reference, the weighted average of the images assigned to it, each aligned with its pose.
#include <cstddef>
#include <vector>

#include "frost/alignment/settings.hpp"
#include "frost/alignment/significance.hpp"
#include "frost/core/image.hpp"

namespace frost::align {

struct ClassAverages {
  Image<float> averages;           ///< {X, X, 1, n_ref}: image r is reference r's average
  std::vector<std::size_t> counts; ///< rows assigned to each reference (classCount)
};

/// @brief avg_r = Σ w(r, i) · W_A(r,i)[I_i] / Σ w(r, i) over the rows assigned to r, where
/// `results[r · n_img + i]` holds A (and flip: a flipped row warps the X-mirror of I_i, as the
/// aligner aligned it). The normaliser is per reference (the anchor's accumulates across
/// references, quirk 2); assigned rows with Σ w = 0 give the unweighted mean (quirk 3); a
/// reference without rows gives zeros. `images` is {X, X, 1, n_img}. Sums in double.
ClassAverages class_averages(View<const float> images, const std::vector<Assignment>& rows,
                             const std::vector<PairResult>& results, std::size_t n_ref);

} // namespace frost::align
