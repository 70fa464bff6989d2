#pragma once
// The half spectrum of a real image, shared by the FRC and the dose-weighting check
// (docs/session.md#half-sum-frc); the shell sums are frost::fft's shell_sums().
#include <complex>
#include <vector>

#include "frost/core/image.hpp"

namespace frost::session::detail {

/// The R2C half spectrum (nx/2+1 by ny, x fastest) of the first plane of `image`, by FFTW.
std::vector<std::complex<float>> half_spectrum(View<const float> image);

} // namespace frost::session::detail
