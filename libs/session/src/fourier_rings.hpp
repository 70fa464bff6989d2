#pragma once
// The half spectrum of a real image and its ring index, shared by the FRC and the dose-weighting
// check (docs/session.md#half-sum-frc).
#include <complex>
#include <vector>

#include "frost/core/image.hpp"

namespace frost::session::detail {

/// The R2C half spectrum (nx/2+1 by ny, x fastest) of the first plane of `image`.
std::vector<std::complex<float>> half_spectrum(View<const float> image);

/// For each element of the half spectrum: its frequency in cycles per pixel, scaled per axis
/// (sqrt((kx/nx)^2 + (ky/ny)^2)), and its weight: 2 for columns whose conjugate is not stored,
/// 1 for kx = 0 and (even nx) kx = nx/2.
struct RingGeometry {
  std::vector<double> frequency;
  std::vector<double> weight;
};
RingGeometry ring_geometry(index_t nx, index_t ny);

} // namespace frost::session::detail
