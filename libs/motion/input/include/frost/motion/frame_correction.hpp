#pragma once
/// @file frame_correction.hpp
/// @brief The corrected frame F = (R - D) ⊙ G (docs/movie_align.md#gain-dark-defects-and-hot-pixels;
/// Xmipp subtracts the dark, then multiplies by the gain).
#include "frost/core/hd.hpp"
#include "frost/core/shape.hpp"

namespace frost::motion {

/// @brief Applies (frame - dark) * gain to `pixels` values in place; `dark` or `gain` may be
/// null (no dark: D = 0; no gain: G = 1).
void correct_frame(float* frame, index_t pixels, const float* dark, const float* gain);

/// One pixel of correct_frame(): (v − dark[i])·gain[i], either reference may be null. The CUDA
/// movie upload applies it to frames it decodes on the device (the same float operations).
FROST_HD inline float corrected_pixel(float v, const float* dark, const float* gain, index_t i) {
  if (dark && gain) return (v - dark[i]) * gain[i];
  if (gain) return v * gain[i];
  if (dark) return v - dark[i];
  return v;
}

} // namespace frost::motion
