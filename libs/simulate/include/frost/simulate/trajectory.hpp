#pragma once
/// @file trajectory.hpp
/// @brief Known specimen motion for synthetic movies (docs/simulate.md#trajectories).
///
/// A frame t shows the specimen displaced: the pixel at x in frame t shows the specimen point
/// x - E_t(x). E_t = g(t) (global) + a time-growing "doming" term for T3. The shift to apply
/// to frame t (what frost stores, docs/conventions.md#shifts) is s_t = -g(t) for global motion.
#include <string>

#include "frost/core/hd.hpp"

namespace frost::sim {

enum class TrajectoryKind {
  None, ///< no motion
  T1,   ///< exponential settling drift: 12(1-e^{-t/4})+0.15t, -6(1-e^{-t/3})+0.1t
  T2,   ///< fast linear drift: 6t, 1.8t (120 px over 20 frames)
  T3    ///< T1-like global drift plus doming up to 1.5 px at mid-edge (local motion)
};

TrajectoryKind parse_trajectory(const std::string& name); ///< "none|T1|T2|T3" (case-insensitive)
const char* trajectory_name(TrajectoryKind k);

/// Displacement field E_t(x, y) of one of the test trajectories (T1-T3) for frames of nx x ny pixels.
struct Trajectory {
  TrajectoryKind kind = TrajectoryKind::None;
  double nx = 1, ny = 1;
  double frames = 20;         ///< frame count (doming grows as t / (frames - 1))
  double time_constant = 4.0; ///< T3's settling time constant (1.5 for the fast-drift variant)

  /// Global displacement g(t) [px].
  void global(double t, double* gx, double* gy) const;
  /// Full displacement E_t(x, y) = g(t) + local term [px]; x, y in pixels of the frame.
  void displacement(double t, double x, double y, double* ex, double* ey) const;
  /// True when the motion varies over the frame (needs interpolation, not a phase ramp).
  bool is_local() const { return kind == TrajectoryKind::T3; }
};

} // namespace frost::sim
