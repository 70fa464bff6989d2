#pragma once
/// @file power_spectrum.hpp
/// @brief Power spectra of micrographs: the mean periodogram (docs/movie_align.md#power-spectrum, the PSD
/// that frost_movie_align --opsd writes) and its picture.
#include "frost/core/image.hpp"
#include "frost/picture/raster.hpp"

namespace frost::picture {

/// @brief Mean periodogram |FFT|² of the n x n tiles of `image` whose corners lie on a grid of
/// step n/2 (50 % overlap) starting at (0, 0), as an n x n float image with zero frequency at
/// (n/2, n/2). Unnormalised FFT (frost::fft, CPU): white noise of variance σ² gives σ²·n² on
/// average. Deterministic: tiles are added in a fixed order.
/// @throw frost::Error(Usage) when n is odd or < 2 or larger than the image.
Image<float> mean_periodogram(View<const float> image, index_t n);

/// @brief The picture of a centred power spectrum (zero frequency at (n/2, n/2)): log10 of the
/// power, the zero-frequency sample replaced by the mean of its four neighbours (it would set
/// the window alone), clipped at the 1st and 99.8th percentiles.
Raster power_spectrum_picture(View<const float> centred_power);

} // namespace frost::picture
