#pragma once
/// @file frame_spectra.hpp
/// @brief The frame spectra of the global alignment (docs/movie_align.md#steps-of-the-global-stage):
/// forward FFT of every frame's transform window, Fourier crop, low-pass, normalisation, zeroed axes.
#include <vector>

#include "frost/core/image.hpp"
#include "frost/fft/spec.hpp"
#include "frost/motion/frame_loader.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion {

/// @brief Filtered, cropped spectra of all frames: shape (C_x/2+1) x C_y x 1 x N, frame t at item t.
/// Each frame's centred M_x x M_y window is transformed (one single-threaded plan per frame, frames
/// in parallel, so results do not depend on the thread count), cropped with
/// crop_half_spectrum(…, filter, 1/(M_x·M_y)).
/// @param frames N views of frame size `sizes.frame` (any x/y layout of contiguous floats)
/// @param filter lowpass_filter(sizes), or an empty view for H = 1
/// @throw frost::Error(Usage) when a frame's size differs from sizes.frame.
Image<fft::Complex> filtered_spectra(const std::vector<View<const float>>& frames, const WorkingSizes& sizes,
                                     View<const float> filter);

/// @brief The same for `count` frames of size `sizes.frame` made by `load` (each thread loads
/// its frames into its own buffer): the same result as for the frames held in memory.
Image<fft::Complex> filtered_spectra(int count, const FrameLoader& load, const WorkingSizes& sizes,
                                     View<const float> filter);

} // namespace frost::motion
