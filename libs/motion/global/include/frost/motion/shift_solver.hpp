#pragma once
/// @file shift_solver.hpp
/// @brief Frame positions from pairwise displacements: weighted least squares with robust outlier
/// rounds (docs/movie_align.md#robust-least-squares; the FlexAlign paper, eqs. (1)-(3)).
#include <vector>

#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// One measured relation d_j - d_i = m (x and y), i != j.
struct PairEquation {
  int i = 0, j = 0;
  Vec2 m;
  bool usable = true; ///< false: excluded before solving (never enters any round)
};

struct SolverOptions {
  double outlier_sigma = 3.0; ///< reject |e| > k·sigma per axis
  int max_rounds = 10;        ///< flagging rounds; each is followed by a re-solve
  /// Residuals below this [px] are never outliers (keeps noise-free data from being thinned out
  /// when sigma is at rounding level).
  double min_sigma = 1e-3;
};

/// Result of solve_positions.
struct SolverResult {
  std::vector<Vec2> positions;   ///< d_t with the gauge d_0 = 0 [px]
  std::vector<char> accepted;    ///< per equation: used by the final solve
  int outliers = 0;              ///< usable equations rejected as outliers
  int rounds = 0;                ///< flagging rounds run (0: the first solve had no outlier)
  int kept_for_connectivity = 0; ///< outliers kept because dropping them would disconnect a frame
  bool connected = true;         ///< false: the usable equations never linked every frame
  /// R² = 1 - var(e)/var(m) per axis over the accepted equations (NaN when var(m) = 0). A value
  /// clearly below 1 means the accepted equations contradict each other (unrejected outliers).
  double r2_x = 0, r2_y = 0;
  double residual_rms_x = 0, residual_rms_y = 0; ///< over the accepted equations [px]
};

/// @brief One weighted least-squares solve (weights 0/1 from `use`), gauge d_0 = 0; normal
/// equations by Cholesky. Frames not linked to frame 0 by used equations get position 0.
std::vector<Vec2> least_squares_positions(int frames, const std::vector<PairEquation>& equations,
                                          const std::vector<char>& use);

/// @brief Solve, then rounds of: residuals e; sigma_x, sigma_y over the accepted equations only;
/// reject accepted equations with |e_x| > k·sigma_x or |e_y| > k·sigma_y (largest first, never one
/// whose removal disconnects a frame from the others); re-solve. Stops when a round rejects nothing
/// or after max_rounds rounds.
SolverResult solve_positions(int frames, const std::vector<PairEquation>& equations, const SolverOptions& options);

} // namespace frost::motion
