// The AVX2 row of the CPU's field warp (docs/movie_align.md#the-cpu-render). Eight pixels whose
// positions lie inside the frame and whose taps are regular (tap column of pixel x + k = that of x
// plus k, one tap row for all eight: the shift field varies by far less than a pixel over eight
// pixels, so this is almost every group) read their 4 x 4 taps as 16 unaligned 8-float loads; the
// others go through warp_row. Float weights and products as warp_row's interior path, rows of x
// taps summed first. The target switch comes after the shared headers, so only this file's code
// uses AVX2; the caller checks the processor.
#include "warp_row_avx2.hpp"

#include <cstdlib>
#include <cstring>

#include "warp_row.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif

namespace frost::motion::detail {
namespace {

/// Cubic B-spline weights of t (geom::cubic_bspline_weights in float, lane by lane).
inline void weights8(__m256 t, __m256 w[4]) {
  const __m256 sixth = _mm256_set1_ps(1.f / 6.f), one = _mm256_set1_ps(1.f), three = _mm256_set1_ps(3.f);
  const __m256 t2 = _mm256_mul_ps(t, t), t3 = _mm256_mul_ps(t2, t), u = _mm256_sub_ps(one, t);
  w[0] = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(u, u), u), sixth);
  w[1] = _mm256_mul_ps(_mm256_add_ps(_mm256_sub_ps(_mm256_set1_ps(4.f), _mm256_mul_ps(_mm256_set1_ps(6.f), t2)),
                                     _mm256_mul_ps(three, t3)),
                       sixth);
  w[2] = _mm256_mul_ps(
      _mm256_sub_ps(_mm256_add_ps(_mm256_add_ps(one, _mm256_mul_ps(three, t)), _mm256_mul_ps(three, t2)),
                    _mm256_mul_ps(three, t3)),
      sixth);
  w[3] = _mm256_mul_ps(t3, sixth);
}

} // namespace

bool warp_row_avx2_available() {
  static const bool ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  // FROST_CPU_WARP=scalar selects the portable row (tests compare the two).
  const char* env = std::getenv("FROST_CPU_WARP");
  return ok && !(env && std::strcmp(env, "scalar") == 0);
}

void warp_row_avx2(const float* c, index_t nx, index_t ny, index_t y, const double* sx, const double* sy, float* dst) {
  const __m256d lane_lo = _mm256_setr_pd(0, 1, 2, 3), lane_hi = _mm256_setr_pd(4, 5, 6, 7);
  const __m256d lo = _mm256_set1_pd(1.0), ux = _mm256_set1_pd(static_cast<double>(nx - 2)),
                vy = _mm256_set1_pd(static_cast<double>(ny - 2)), yd = _mm256_set1_pd(static_cast<double>(y));
  const __m256i step = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  index_t x = 0;
  for (; x + 8 <= nx; x += 8) {
    const __m256d xd = _mm256_set1_pd(static_cast<double>(x));
    const __m256d u0 = _mm256_sub_pd(_mm256_add_pd(xd, lane_lo), _mm256_loadu_pd(sx + x));
    const __m256d u1 = _mm256_sub_pd(_mm256_add_pd(xd, lane_hi), _mm256_loadu_pd(sx + x + 4));
    const __m256d v0 = _mm256_sub_pd(yd, _mm256_loadu_pd(sy + x));
    const __m256d v1 = _mm256_sub_pd(yd, _mm256_loadu_pd(sy + x + 4));
    // Inside: 1 <= u < nx - 2 and 1 <= v < ny - 2 for all eight.
    __m256d in0 = _mm256_and_pd(_mm256_cmp_pd(u0, lo, _CMP_GE_OQ), _mm256_cmp_pd(u0, ux, _CMP_LT_OQ));
    in0 = _mm256_and_pd(in0, _mm256_and_pd(_mm256_cmp_pd(v0, lo, _CMP_GE_OQ), _mm256_cmp_pd(v0, vy, _CMP_LT_OQ)));
    __m256d in1 = _mm256_and_pd(_mm256_cmp_pd(u1, lo, _CMP_GE_OQ), _mm256_cmp_pd(u1, ux, _CMP_LT_OQ));
    in1 = _mm256_and_pd(in1, _mm256_and_pd(_mm256_cmp_pd(v1, lo, _CMP_GE_OQ), _mm256_cmp_pd(v1, vy, _CMP_LT_OQ)));
    if ((_mm256_movemask_pd(in0) & _mm256_movemask_pd(in1)) != 0xf) {
      warp_row(c, nx, ny, y, sx, sy, dst, x, x + 8);
      continue;
    }
    // Positive there: truncation is floor, as in warp_row.
    const __m256d fu0 = _mm256_round_pd(u0, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256d fu1 = _mm256_round_pd(u1, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256d fv0 = _mm256_round_pd(v0, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256d fv1 = _mm256_round_pd(v1, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256i iu = _mm256_set_m128i(_mm256_cvttpd_epi32(fu1), _mm256_cvttpd_epi32(fu0));
    const __m256i iv = _mm256_set_m128i(_mm256_cvttpd_epi32(fv1), _mm256_cvttpd_epi32(fv0));
    const int iu0 = _mm256_cvtsi256_si32(iu), iv0 = _mm256_cvtsi256_si32(iv);
    const __m256i want_u = _mm256_add_epi32(_mm256_set1_epi32(iu0), step);
    const __m256i same = _mm256_and_si256(_mm256_cmpeq_epi32(iu, want_u), _mm256_cmpeq_epi32(iv, _mm256_set1_epi32(iv0)));
    if (_mm256_movemask_epi8(same) != -1) {
      warp_row(c, nx, ny, y, sx, sy, dst, x, x + 8);
      continue;
    }
    const __m256 tx = _mm256_set_m128(_mm256_cvtpd_ps(_mm256_sub_pd(u1, fu1)), _mm256_cvtpd_ps(_mm256_sub_pd(u0, fu0)));
    const __m256 ty = _mm256_set_m128(_mm256_cvtpd_ps(_mm256_sub_pd(v1, fv1)), _mm256_cvtpd_ps(_mm256_sub_pd(v0, fv0)));
    __m256 wx[4], wy[4];
    weights8(tx, wx);
    weights8(ty, wy);
    const float* p = c + (static_cast<index_t>(iv0) - 1) * nx + (static_cast<index_t>(iu0) - 1);
    __m256 acc = _mm256_setzero_ps();
    for (int j = 0; j < 4; ++j, p += nx) {
      __m256 r = _mm256_mul_ps(wx[0], _mm256_loadu_ps(p));
      r = _mm256_fmadd_ps(wx[1], _mm256_loadu_ps(p + 1), r);
      r = _mm256_fmadd_ps(wx[2], _mm256_loadu_ps(p + 2), r);
      r = _mm256_fmadd_ps(wx[3], _mm256_loadu_ps(p + 3), r);
      acc = _mm256_fmadd_ps(wy[j], r, acc);
    }
    _mm256_storeu_ps(dst + x, acc);
  }
  warp_row(c, nx, ny, y, sx, sy, dst, x, nx);
}

} // namespace frost::motion::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else // no AVX2 copy in this build

namespace frost::motion::detail {
bool warp_row_avx2_available() { return false; }
void warp_row_avx2(const float* c, index_t nx, index_t ny, index_t y, const double* sx, const double* sy, float* dst) {
  warp_row(c, nx, ny, y, sx, sy, dst, 0, nx);
}
} // namespace frost::motion::detail

#endif
