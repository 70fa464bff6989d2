#pragma once
/// @file warp_methods.hpp
/// @brief The three resamplers behind warp_frame (shapes already checked, shift not zero).
#include "frost/core/image.hpp"
#include "frost/motion/frame_shift.hpp"

namespace frost::motion::detail {

void warp_bspline(View<const float> frame, const FrameShift& shift, View<float> out);
void warp_bilinear(View<const float> frame, const FrameShift& shift, View<float> out);
void warp_fourier(View<const float> frame, Vec2 shift, View<float> out);

} // namespace frost::motion::detail
