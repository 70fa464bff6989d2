#pragma once
/// @file fourier_crop.hpp
/// @brief Fourier cropping of a frame's half spectrum to the correlation grid
/// (docs/movie_align.md#working-sizes-and-the-low-pass-filter; Xmipp kernel `scaleFFT2DKernel` and
/// `ignoreLowFreq`).
#include "frost/core/image.hpp"
#include "frost/fft/spec.hpp"
#include "frost/motion/correlation_math.hpp" // crop_source_row, crop_zeroed

namespace frost::motion {

/// @brief cropped(kx, ky) = full(kx, crop_source_row(ky))·H(kx, ky)·scale for kx <= C_x/2, then the
/// whole first row (k_y = 0) and first column (k_x = 0) set to zero: this removes the mean and the
/// axis-aligned streaks of detector lines and non-periodic frame edges.
/// @param full half spectrum of an M_x x M_y frame, shape (M_x/2+1) x M_y
/// @param cropped output, shape (C_x/2+1) x C_y with C even and C <= M per axis
/// @param filter H with the shape of `cropped`, or an empty view (data == nullptr) for H = 1
/// @param scale normally 1/(M_x·M_y), which makes the unnormalised forward transform an average
void crop_half_spectrum(View<const fft::Complex> full, View<fft::Complex> cropped, View<const float> filter,
                        float scale);

} // namespace frost::motion
