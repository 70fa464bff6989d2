#pragma once
/// @file power_spectrum.hpp
/// @brief The PSD written by `--opsd` (docs/movie_align.md#power-spectrum).
#include "frost/core/image.hpp"

namespace frost::motion {

/// @brief Mean periodogram |FFT|² of the n x n tiles of `image` whose corners lie on a grid of
/// step n/2 (50 % overlap) starting at (0, 0), as an n x n float image with zero frequency at
/// (n/2, n/2). Unnormalised FFT: white noise of variance σ² gives σ²·n² on average.
/// Deterministic: tiles are added in a fixed order. Computed by picture::mean_periodogram (the
/// PSD picture of `--opsd-png` shows the same spectrum); this adds the option's name to errors.
/// @throw frost::Error(Usage) when n is odd or < 2 or larger than the image.
Image<float> mean_periodogram(View<const float> image, index_t n);

} // namespace frost::motion
