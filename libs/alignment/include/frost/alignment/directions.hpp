#pragma once
/// @file directions.hpp
/// @brief Projection directions of a reference gallery: Fibonacci points on the sphere
/// (docs/align_significant.md#analytic-phantom-fixture) and the volume-mode gallery
/// (docs/align_significant.md#volume-mode).
#include <vector>

#include "frost/geometry/euler.hpp"
#include "frost/geometry/symmetry.hpp"

namespace frost::align {

/// @brief N Fibonacci directions on the full sphere: z_k = 1 − (2k+1)/N, azimuth_k =
/// (k + ½)·π(1+√5) mod 2π; as (rot = azimuth, tilt = acos z, psi = 0) in degrees.
std::vector<geom::EulerAngles> fibonacci_directions(int n);

/// @brief Number of full-sphere directions for a sampling step: round(41258 / step²), which
/// matches Xmipp's icosahedral sampling counts within 1 % from 1° to 15° (184 at 15°, 412 at
/// 10°, 1,652 at 5°).
int full_sphere_count(double step_deg);

/// @brief The gallery of volume mode: full_sphere_count(step) Fibonacci directions, of which
/// only those in one asymmetric unit of the proper rotations of `group` are kept (a direction
/// is kept when it is the largest of its orbit by (z, x, y)), then those with
/// min_tilt ≤ tilt ≤ max_tilt. The count drops by about the number of proper rotations.
/// Improper elements are ignored: they relate an image to a mirrored one, and mirrors are
/// only tested with --check-mirrors.
std::vector<geom::EulerAngles> gallery_directions(double step_deg, const geom::SymmetryGroup& group,
                                                  double min_tilt = 0, double max_tilt = 180);

} // namespace frost::align
