#pragma once
/// @file frame_correction.hpp
/// @brief The corrected frame F = (R - D) ⊙ G (movie-alignment §4.2; Xmipp subtracts the dark,
/// then multiplies by the gain).
#include "frost/core/shape.hpp"

namespace frost::motion {

/// @brief Applies (frame - dark) * gain to `pixels` values in place; `dark` or `gain` may be
/// null (no dark: D = 0; no gain: G = 1).
void correct_frame(float* frame, index_t pixels, const float* dark, const float* gain);

} // namespace frost::motion
