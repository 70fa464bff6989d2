#pragma once
/// @file half_spectrum.hpp
/// @brief The R2C half spectrum of one host image with FFTW, for the analyses that sum over it
/// (shell_sums.hpp): the half-sum FRC, the dose-weighting check, the render's quality numbers.
#include <complex>
#include <vector>

#include "frost/core/image.hpp"

namespace frost::fft {

/// The half spectrum (nx/2+1 by ny, x fastest) of the first plane of `image`, unnormalised, by
/// the shared CPU planner. The image is not written.
std::vector<std::complex<float>> host_half_spectrum(View<const float> image);

} // namespace frost::fft
