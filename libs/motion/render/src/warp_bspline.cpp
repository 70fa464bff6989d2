// Cubic B-spline warp (`bspline3` in docs/movie_align.md#warping-a-frame; the CPU's float prefilter
// and interior fast path in docs/movie_align.md#the-cpu-render): prefilter once per frame, then
// evaluate the spline at x − s(x) with positions outside the frame reflected back into it.
#include <cmath>
#include <vector>

#include "frost/core/threads.hpp"
#include "frost/geometry/bspline.hpp"
#include "frost/motion/warp_math.hpp"
#include "frost/motion/warp_prefilter.hpp"
#include "warp_row.hpp"
#include "warp_row_avx2.hpp"
#include "warp_methods.hpp"

namespace frost::motion::detail {

namespace {

/// Constant shift: the spline is separable and its taps are the same along a column (and
/// along a row), so it is evaluated in two 4-tap passes: along x into every coefficient row,
/// then along y. Taps are tabulated once per column and once per row.
void warp_constant(View<const float> coeffs, Vec2 s, View<float> out) {
  const index_t nx = out.shape.x, ny = out.shape.y;
  std::vector<Taps> columns(static_cast<std::size_t>(nx)), rows(static_cast<std::size_t>(ny));
  for (index_t x = 0; x < nx; ++x) columns[static_cast<std::size_t>(x)] = taps_at(static_cast<double>(x) - s.x, nx);
  for (index_t y = 0; y < ny; ++y) rows[static_cast<std::size_t>(y)] = taps_at(static_cast<double>(y) - s.y, ny);
  Image<float> along_x(out.shape);
#pragma omp parallel num_threads(num_threads())
  {
#pragma omp for schedule(static)
    for (index_t y = 0; y < ny; ++y) {
      const float* src = coeffs.data + y * nx;
      float* dst = along_x.data() + y * nx;
      for (index_t x = 0; x < nx; ++x) {
        const Taps& t = columns[static_cast<std::size_t>(x)];
        double v = 0.0;
        for (int i = 0; i < 4; ++i) v += t.weight[i] * static_cast<double>(src[t.index[i]]);
        dst[x] = static_cast<float>(v);
      }
    }
#pragma omp for schedule(static)
    for (index_t y = 0; y < ny; ++y) {
      const Taps& t = rows[static_cast<std::size_t>(y)];
      const float* r0 = along_x.data() + t.index[0] * nx;
      const float* r1 = along_x.data() + t.index[1] * nx;
      const float* r2 = along_x.data() + t.index[2] * nx;
      const float* r3 = along_x.data() + t.index[3] * nx;
      const double w0 = t.weight[0], w1 = t.weight[1], w2 = t.weight[2], w3 = t.weight[3];
      float* dst = out.data + y * nx;
      for (index_t x = 0; x < nx; ++x)
        dst[x] = static_cast<float>(w0 * r0[x] + w1 * r1[x] + w2 * r2[x] + w3 * r3[x]);
    }
  }
}

/// Shift varying over the frame: taps per pixel, rows spread over the threads (warp_row.hpp, or its
/// AVX2 form eight pixels at a time).
void warp_field(View<const float> coeffs, const FrameShift& shift, View<float> out) {
  const index_t nx = out.shape.x, ny = out.shape.y;
  const float* c = coeffs.data;
  const bool avx2 = warp_row_avx2_available();
#pragma omp parallel num_threads(num_threads())
  {
    std::vector<double> sx(static_cast<std::size_t>(nx)), sy(static_cast<std::size_t>(nx));
#pragma omp for schedule(static)
    for (index_t y = 0; y < ny; ++y) {
      shift.row(y, nx, sx.data(), sy.data());
      float* dst = out.data + y * nx;
      if (avx2)
        warp_row_avx2(c, nx, ny, y, sx.data(), sy.data(), dst);
      else
        warp_row(c, nx, ny, y, sx.data(), sy.data(), dst, 0, nx);
    }
  }
}

} // namespace

void warp_bspline(View<const float> frame, const FrameShift& shift, View<float> out) {
  const Image<float> coeffs = bspline_coefficients_float(frame);
  if (shift.is_constant())
    warp_constant(coeffs.cview(), shift.constant_shift(), out);
  else
    warp_field(coeffs.cview(), shift, out);
}

} // namespace frost::motion::detail
