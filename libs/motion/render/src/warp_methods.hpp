#pragma once
/// @file warp_methods.hpp
/// @brief The three resamplers behind warp_frame (shapes already checked, shift not zero).
#include <vector>

#include "frost/core/image.hpp"
#include "frost/core/threads.hpp"
#include "frost/motion/frame_shift.hpp"

namespace frost::motion::detail {

/// out(x, y) = sample(x − s_x(x, y), y − s_y(x, y)) with the shift of a whole row evaluated at
/// once (FrameShift::row); rows spread over threads. The loop of the per-pixel resamplers.
template <class Sample>
void warp_rows(const FrameShift& shift, View<float> out, Sample sample) {
  const index_t nx = out.shape.x, ny = out.shape.y;
#pragma omp parallel num_threads(num_threads())
  {
    std::vector<double> sx(static_cast<std::size_t>(nx)), sy(static_cast<std::size_t>(nx));
#pragma omp for schedule(static)
    for (index_t y = 0; y < ny; ++y) {
      shift.row(y, nx, sx.data(), sy.data());
      float* dst = out.data + y * nx;
      for (index_t x = 0; x < nx; ++x)
        dst[x] = sample(static_cast<double>(x) - sx[static_cast<std::size_t>(x)],
                        static_cast<double>(y) - sy[static_cast<std::size_t>(x)]);
    }
  }
}

void warp_bspline(View<const float> frame, const FrameShift& shift, View<float> out);
void warp_bilinear(View<const float> frame, const FrameShift& shift, View<float> out);
void warp_fourier(View<const float> frame, Vec2 shift, View<float> out);

} // namespace frost::motion::detail
