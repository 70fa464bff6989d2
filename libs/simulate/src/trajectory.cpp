#include "frost/simulate/trajectory.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "frost/core/error.hpp"

namespace frost::sim {

TrajectoryKind parse_trajectory(const std::string& name) {
  std::string t;
  for (char c : name) t += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (t == "NONE") return TrajectoryKind::None;
  if (t == "T1") return TrajectoryKind::T1;
  if (t == "T2") return TrajectoryKind::T2;
  if (t == "T3") return TrajectoryKind::T3;
  throw_usage_error("--trajectory: expected none, T1, T2 or T3 but got '" + name + "'");
}

const char* trajectory_name(TrajectoryKind k) {
  switch (k) {
  case TrajectoryKind::None: return "none";
  case TrajectoryKind::T1: return "T1";
  case TrajectoryKind::T2: return "T2";
  case TrajectoryKind::T3: return "T3";
  }
  return "none";
}

void Trajectory::global(double t, double* gx, double* gy) const {
  switch (kind) {
  case TrajectoryKind::None: *gx = *gy = 0; return;
  case TrajectoryKind::T1:
    *gx = 12.0 * (1.0 - std::exp(-t / 4.0)) + 0.15 * t;
    *gy = -6.0 * (1.0 - std::exp(-t / 3.0)) + 0.1 * t;
    return;
  case TrajectoryKind::T2:
    *gx = 6.0 * t;
    *gy = 1.8 * t;
    return;
  case TrajectoryKind::T3:
    *gx = 8.0 * (1.0 - std::exp(-t / time_constant)) + 0.1 * t;
    *gy = -5.0 * (1.0 - std::exp(-t / time_constant)) + 0.08 * t;
    return;
  }
}

void Trajectory::displacement(double t, double x, double y, double* ex, double* ey) const {
  global(t, ex, ey);
  if (kind != TrajectoryKind::T3) return;
  // Doming: (3 t / (frames-1)) * rho |rho|^2 / 2 with rho the position relative to the centre,
  // normalised to [-1, 1]; 1.5 px at mid-edge in the last frame.
  const double rx = (x - nx / 2.0) / (nx / 2.0);
  const double ry = (y - ny / 2.0) / (ny / 2.0);
  const double r2 = rx * rx + ry * ry;
  const double scale = 3.0 * t / std::max(1.0, frames - 1.0) * r2 / 2.0;
  *ex += scale * rx;
  *ey += scale * ry;
}

} // namespace frost::sim
