#pragma once
// One row of the CPU's field warp (docs/movie_align.md#the-cpu-render): interior pixels in float
// without the mirror, the others through bspline_sample. Included by warp_bspline.cpp and, before
// its target switch, by warp_row_avx2.cpp (which falls back to warp_row for irregular pixels).
#include "frost/core/shape.hpp"
#include "frost/geometry/bspline.hpp"
#include "frost/motion/warp_math.hpp"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace frost::motion::detail {
namespace {

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

/// Pixels x0..x1-1 of row y: out(x, y) = spline(x - sx[x], y - sy[x]). First tap floor(u) - 1 >= 0
/// and last floor(u) + 2 <= n - 1 (u in [1, n - 2]) need no mirror; there truncation is floor
/// (std::floor is a library call without SSE4.1).
inline void warp_row(const float* c, index_t nx, index_t ny, index_t y, const double* sx, const double* sy,
                     float* dst, index_t x0, index_t x1) {
  for (index_t x = x0; x < x1; ++x) {
    const double u = static_cast<double>(x) - sx[x];
    const double v = static_cast<double>(y) - sy[x];
    if (u >= 1.0 && v >= 1.0 && u < static_cast<double>(nx - 2) && v < static_cast<double>(ny - 2)) {
      const index_t fu = static_cast<index_t>(u), fv = static_cast<index_t>(v);
      dst[x] = interior_sample(c + (fv - 1) * nx + (fu - 1), nx, static_cast<float>(u - static_cast<double>(fu)),
                               static_cast<float>(v - static_cast<double>(fv)));
    } else {
      dst[x] = bspline_sample(c, nx, ny, u, v);
    }
  }
}

} // namespace
} // namespace frost::motion::detail
