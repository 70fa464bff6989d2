#include "frost/motion/warp_frame.hpp"

#include <algorithm>

#include "frost/core/error.hpp"
#include "warp_methods.hpp"

namespace frost::motion {

void warp_frame(View<const float> frame, const FrameShift& shift, InterpolationMethod method, View<float> out) {
  FROST_EXPECTS(frame.shape.z == 1 && frame.shape.n == 1 && frame.shape.x >= 1 && frame.shape.y >= 1,
                "warp_frame: expects one 2-D frame, got " + to_string(frame.shape));
  FROST_EXPECTS(out.shape == frame.shape,
                "warp_frame: output " + to_string(out.shape) + " differs from frame " + to_string(frame.shape));
  FROST_EXPECTS(frame.data != out.data, "warp_frame: output must not alias the frame");
  if (method == InterpolationMethod::Fourier && !shift.is_constant())
    throw_usage_error("--interp fourier applies one shift per frame; it needs a global-only motion model");
  if (shift.is_zero()) {
    std::copy(frame.data, frame.data + frame.shape.total(), out.data);
    return;
  }
  switch (method) {
  case InterpolationMethod::BSpline3: detail::warp_bspline(frame, shift, out); return;
  case InterpolationMethod::Bilinear: detail::warp_bilinear(frame, shift, out); return;
  case InterpolationMethod::Fourier: detail::warp_fourier(frame, shift.constant_shift(), out); return;
  }
}

Image<float> warp_frame(View<const float> frame, const FrameShift& shift, InterpolationMethod method) {
  Image<float> out(frame.shape);
  warp_frame(frame, shift, method, out.view());
  return out;
}

} // namespace frost::motion
