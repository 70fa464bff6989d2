#pragma once
/// @file significance.hpp
/// @brief Per-pair weights and best-N assignment
/// (docs/align_significant.md#significance-weights-and-assignment), host only.
///
/// Determinism rules of the toolkit: pools are sorted by (CC, reference, image); votes are
/// ranked by decreasing value, ties to the lower reference index; M_r = 1 gives cdf = 1;
/// max Π_r ≤ 0 gives weight 0 for the whole reference; a NaN CC is in no pool and weighs 0, a
/// NaN vote ranks as −∞. Both functions use frost::num_threads() OpenMP threads; the results do
/// not depend on the count.
#include <cstddef>
#include <vector>

#include "frost/geometry/euler.hpp"

namespace frost::align {

/// @brief w(r, i) for the N_ref × N_img matrix `cc` (row = reference): neighbourhoods by the
/// angle between projection directions (psi ignored, no symmetry) ≤ ang_distance degrees.
/// `directions` holds each reference's (rot, tilt).
std::vector<float> significance_weights(const std::vector<float>& cc, std::size_t n_ref, std::size_t n_img,
                                        const std::vector<geom::EulerAngles>& directions, double ang_distance);

/// One kept (reference, image) pair.
struct Assignment {
  std::size_t image = 0, reference = 0;
  float cc = 0, weight = 0;
  float max_vote = 0; ///< the vote of the image's best row (written as maxCC)
};

/// @brief Per image in input order, the references by decreasing vote (CC, or the weight with
/// `use_weight`) until `keep_best` are taken or the next vote is ≤ 0 (docs/align_significant.md#assignment).
std::vector<Assignment> assign_best(const std::vector<float>& cc, const std::vector<float>& weights,
                                    std::size_t n_ref, std::size_t n_img, std::size_t keep_best, bool use_weight);

} // namespace frost::align
