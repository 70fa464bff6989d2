#pragma once
/// @file render_test_images.hpp
/// @brief Test images for the render stage: band-limited noise, exact periodic shifts, and the
/// interior error measure of docs/movie_align.md#interpolation-and-micrograph-quality.
#include <cstdint>

#include "frost/core/image.hpp"

namespace frost::motion::test_images {

/// Gaussian white noise keeping only |k| < kmax [px⁻¹], then mean 0 and standard deviation 1.
Image<float> band_limited_noise(index_t nx, index_t ny, double kmax, std::uint32_t seed);

/// The exact (periodic, phase-ramp) shift whose content moves by (sx, sy): out(x) = in(x − s).
Image<float> fourier_shifted(View<const float> image, double sx, double sy);

/// rms(a − ref) / rms(ref) over the pixels at least `margin` from every edge.
double interior_relative_rms(View<const float> a, View<const float> ref, index_t margin);

} // namespace frost::motion::test_images
