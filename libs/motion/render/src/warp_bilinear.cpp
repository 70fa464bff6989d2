// Bilinear warp (`bilinear` in docs/movie_align.md#warping-a-frame), RELION's rule
// (motioncorr_runner realSpaceInterpolation): a sample whose 2x2 footprint lies inside the frame is
// interpolated; otherwise the pixel at the floor position, clamped to the frame, is taken as it is.
#include <cmath>

#include "warp_methods.hpp"

namespace frost::motion::detail {

namespace {

/// Value at (u, v) (pixel-index units).
float sample(View<const float> frame, double u, double v) {
  const index_t nx = frame.shape.x, ny = frame.shape.y;
  const double fu = std::floor(u), fv = std::floor(v);
  // Compare as doubles first: a wild shift must not overflow the integer conversion.
  const bool inside = fu >= 0.0 && fv >= 0.0 && fu + 1.0 <= static_cast<double>(nx - 1) &&
                      fv + 1.0 <= static_cast<double>(ny - 1);
  if (!inside) {
    const index_t x0 = fu < 0.0 ? 0 : fu >= static_cast<double>(nx - 1) ? nx - 1 : static_cast<index_t>(fu);
    const index_t y0 = fv < 0.0 ? 0 : fv >= static_cast<double>(ny - 1) ? ny - 1 : static_cast<index_t>(fv);
    return frame(x0, y0);
  }
  const index_t x0 = static_cast<index_t>(fu), y0 = static_cast<index_t>(fv);
  const double ax = u - fu, ay = v - fv;
  const float* r0 = frame.data + y0 * nx + x0;
  const float* r1 = r0 + nx;
  const double top = (1.0 - ax) * r0[0] + ax * r0[1];
  const double bottom = (1.0 - ax) * r1[0] + ax * r1[1];
  return static_cast<float>((1.0 - ay) * top + ay * bottom);
}

} // namespace

void warp_bilinear(View<const float> frame, const FrameShift& shift, View<float> out) {
  warp_rows(shift, out, [&](double u, double v) { return sample(frame, u, v); });
}

} // namespace frost::motion::detail
