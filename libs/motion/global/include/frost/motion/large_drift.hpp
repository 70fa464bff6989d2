#pragma once
/// @file large_drift.hpp
/// @brief Choice of the pairs whose correlation maxima can be trusted when the total drift exceeds
/// the search radius (docs/movie_align.md#pairs-beyond-the-search-radius; EMPIAR-10196 in the
/// FlexAlign paper).
#include <string>
#include <vector>

#include "frost/motion/pair_correlation.hpp"
#include "frost/motion/shift_solver.hpp"

namespace frost::motion {

/// Why a pair is not offered to the robust solver.
enum class PairExclusion : char {
  None = 0,     ///< offered to the solver
  Edge,         ///< its maximum lies on the search-radius boundary (a)
  BeyondRadius  ///< the bootstrap solution predicts it outside rho - 1.5 (c)
};

struct PairSelection {
  std::vector<PairExclusion> exclusion; ///< per measurement
  int bootstrap_passes = 0;             ///< (c)-(d) passes run (0 when nothing was predicted)
  int edge_pairs_used = 0;              ///< edge pairs kept only to connect the frames
  std::vector<std::string> warnings;
};

/// Equations of `pairs` in the same order, all usable.
std::vector<PairEquation> pair_equations(const std::vector<PairMeasurement>& pairs);

/// @brief (a) drop edge-flagged pairs; (b) robust solve from pairs with j - i <= 2; (c) keep pairs
/// whose predicted displacement is below radius - 1.5 correlation px and not edge-flagged; (d) re-solve;
/// (c)-(d) up to 3 times or until the selection repeats. Whenever the kept pairs would leave a frame
/// unlinked, the closest excluded pairs (non-edge first) are taken back and a warning is added.
/// @param to_correlation C/M per axis (correlation px per processing px)
PairSelection select_pairs_for_large_drift(int frames, const std::vector<PairMeasurement>& pairs,
                                           Vec2 to_correlation, double search_radius,
                                           const SolverOptions& solver);

} // namespace frost::motion
