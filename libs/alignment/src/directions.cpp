#include "frost/alignment/directions.hpp"

#include <cmath>

#include "frost/core/error.hpp"

namespace frost::align {

std::vector<geom::EulerAngles> fibonacci_directions(int n) {
  FROST_EXPECTS(n >= 1, "fibonacci_directions: n >= 1");
  std::vector<geom::EulerAngles> out(static_cast<std::size_t>(n));
  const double golden = M_PI * (1.0 + std::sqrt(5.0));
  for (int k = 0; k < n; ++k) {
    const double z = 1.0 - (2.0 * k + 1.0) / n;
    const double az = std::fmod((k + 0.5) * golden, 2.0 * M_PI);
    out[static_cast<std::size_t>(k)] = {az * 180.0 / M_PI, std::acos(z) * 180.0 / M_PI, 0.0};
  }
  return out;
}

int full_sphere_count(double step_deg) {
  FROST_EXPECTS(step_deg > 0, "full_sphere_count: step > 0");
  return std::max(1, static_cast<int>(std::lround(41258.0 / (step_deg * step_deg))));
}

namespace {

/// Lexicographic (z, x, y) with a tolerance, so a direction fixed by an element compares equal.
bool larger(const geom::Vec3d& a, const geom::Vec3d& b) {
  constexpr double eps = 1e-9;
  if (std::abs(a.z - b.z) > eps) return a.z > b.z;
  if (std::abs(a.x - b.x) > eps) return a.x > b.x;
  if (std::abs(a.y - b.y) > eps) return a.y > b.y;
  return false;
}

} // namespace

std::vector<geom::EulerAngles> gallery_directions(double step_deg, const geom::SymmetryGroup& group,
                                                  double min_tilt, double max_tilt) {
  std::vector<geom::Mat3d> rotations;
  for (const geom::Mat3d& r : group.elements())
    if (r.determinant() > 0) rotations.push_back(r);
  std::vector<geom::EulerAngles> out;
  for (const geom::EulerAngles& e : fibonacci_directions(full_sphere_count(step_deg))) {
    if (e.tilt < min_tilt || e.tilt > max_tilt) continue;
    const geom::Vec3d d = geom::projection_direction(e.rot, e.tilt);
    bool canonical = true;
    for (const geom::Mat3d& r : rotations)
      if (larger(r * d, d)) {
        canonical = false;
        break;
      }
    if (canonical) out.push_back(e);
  }
  return out;
}

} // namespace frost::align
