// Cubic B-spline warp (`bspline3` in docs/movie_align.md#warping-a-frame; the CPU's float prefilter
// and interior fast path in docs/movie_align.md#the-cpu-render): prefilter once per frame, then
// evaluate the spline at x − s(x) with positions outside the frame reflected back into it.
#include <cmath>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "frost/core/threads.hpp"
#include "frost/geometry/bspline.hpp"
#include "frost/motion/warp_math.hpp"
#include "frost/motion/warp_prefilter.hpp"
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

/// The spline at (u, v) = (iu + 1 + tx, iv + 1 + ty) from its 4 x 4 coefficients starting at
/// `p` (row stride nx), in float and without the mirror: the four rows weighted by the y taps and
/// summed as one 4-vector (SSE on x86-64), then the x taps. Float instead of double, and this order
/// instead of bspline_sample's, move the result by about 1e-7 of the frame's values
/// (docs/movie_align.md#the-cpu-render).
inline float interior_sample(const float* p, index_t nx, float tx, float ty) {
  float wx[4], wy[4];
  geom::cubic_bspline_weights(tx, wx);
  geom::cubic_bspline_weights(ty, wy);
#if defined(__SSE2__)
  __m128 acc = _mm_mul_ps(_mm_set1_ps(wy[0]), _mm_loadu_ps(p));
  acc = _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(wy[1]), _mm_loadu_ps(p + nx)));
  acc = _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(wy[2]), _mm_loadu_ps(p + 2 * nx)));
  acc = _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(wy[3]), _mm_loadu_ps(p + 3 * nx)));
  acc = _mm_mul_ps(acc, _mm_loadu_ps(wx));
  acc = _mm_add_ps(acc, _mm_movehl_ps(acc, acc));
  acc = _mm_add_ss(acc, _mm_shuffle_ps(acc, acc, 1));
  return _mm_cvtss_f32(acc);
#else
  float col[4];
  for (int i = 0; i < 4; ++i) col[i] = wy[0] * p[i] + wy[1] * p[i + nx] + wy[2] * p[i + 2 * nx] + wy[3] * p[i + 3 * nx];
  return (wx[0] * col[0] + wx[2] * col[2]) + (wx[1] * col[1] + wx[3] * col[3]);
#endif
}

/// Shift varying over the frame: taps per pixel. Pixels whose 4 x 4 taps lie inside the frame
/// (all but a band of two pixels plus the shift at the edges) take interior_sample; the others
/// bspline_sample with its mirrored taps.
void warp_field(View<const float> coeffs, const FrameShift& shift, View<float> out) {
  const index_t nx = out.shape.x, ny = out.shape.y;
  const float* c = coeffs.data;
#pragma omp parallel num_threads(num_threads())
  {
    std::vector<double> sx(static_cast<std::size_t>(nx)), sy(static_cast<std::size_t>(nx));
#pragma omp for schedule(static)
    for (index_t y = 0; y < ny; ++y) {
      shift.row(y, nx, sx.data(), sy.data());
      float* dst = out.data + y * nx;
      for (index_t x = 0; x < nx; ++x) {
        const double u = static_cast<double>(x) - sx[static_cast<std::size_t>(x)];
        const double v = static_cast<double>(y) - sy[static_cast<std::size_t>(x)];
        // First tap floor(u) - 1 >= 0 and last floor(u) + 2 <= n - 1 (then u lies in [1, n - 2]:
        // no mirror). For u >= 1 truncation is floor (std::floor is a library call without SSE4.1).
        if (u >= 1.0 && v >= 1.0 && u < static_cast<double>(nx - 2) && v < static_cast<double>(ny - 2)) {
          const index_t fu = static_cast<index_t>(u), fv = static_cast<index_t>(v);
          dst[x] = interior_sample(c + (fv - 1) * nx + (fu - 1), nx, static_cast<float>(u - static_cast<double>(fu)),
                                   static_cast<float>(v - static_cast<double>(fv)));
        } else {
          dst[x] = bspline_sample(c, nx, ny, u, v);
        }
      }
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
