// The AVX2 tap window of the CPU gather (docs/reconstruct_fourier.md#the-cpu-gather-kernel). It is
// compiled with -ffp-contract=off (CMakeLists.txt): u, v, w, d^2 and the table index are then the
// bits of the scalar code, and only the order of the tap sums differs. The file switches the compiler's target to AVX2 + FMA after the shared headers, so that only the
// code below (and its private instantiation of the box walk) uses those instructions; the caller
// checks the processor first (available()).
#include "cpu_gather_avx2.hpp"

#include <algorithm>
#include <cmath>

#include "frost/reconstruction/gather.hpp"

#if !FROST_RECON_DOUBLE && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FROST_CPU_GATHER_AVX2 1
#else
#define FROST_CPU_GATHER_AVX2 0
#endif

#if FROST_CPU_GATHER_AVX2
#include <immintrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
// Included after the target switch: the walk template is instantiated here for AVX2 only.
#include "cpu_gather_walk.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace cpu_avx2 {
namespace {

/// Sum of the 8 lanes.
inline float hsum8(__m256 x) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(x), _mm256_extractf128_ps(x, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
  return _mm_cvtss_f32(s);
}

/// Adds one window row at `f` (4 complex values: re0 im0 .. re3 im3) times 4 weights of `k`:
/// lanes 0-3 (`upper` false) or 4-7, each duplicated onto its re/im pair.
inline __m256 weigh_row(const float* f, __m256 k, bool upper, __m256 acc) {
  const __m256i dup = upper ? _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7) : _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
  return _mm256_fmadd_ps(_mm256_permutevar8x32_ps(k, dup), _mm256_loadu_ps(f), acc);
}

/// Rows 0 and 1 from `f` times their weights `k` (lanes: row-major, 4 columns per row).
inline __m256 weigh_two_rows(const float* f, std::ptrdiff_t row, __m256 k, __m256 acc) {
  return weigh_row(f + row, k, true, weigh_row(f, k, false, acc));
}

/// The complex sum of the four re/im pairs of `acc`.
inline void sum_pairs(__m256 acc, float& re, float& im) {
  __m128 a = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
  a = _mm_add_ps(a, _mm_movehl_ps(a, a));
  re = _mm_cvtss_f32(a);
  im = _mm_cvtss_f32(_mm_shuffle_ps(a, a, 1));
}

/// The 16 taps as two vectors of two rows each (lanes: row-major, 4 columns per row): weights
/// from the table where d2 <= r2, 0 elsewhere; the complex values of a row (8 floats, re/im
/// interleaved) meet their weights duplicated pairwise.
struct Avx2Window {
  bool operator()(const Cf* F, const float* gw, int fx, float u, float v, float w, int i0, int j0, float r2,
                  const BlobTableView& t, float& gr, float& gi, float& ws, int rows) const {
    if (rows == 3) return three_rows(F, gw, fx, u, v, w, i0, j0, r2, t, gr, gi, ws);
    const __m256 cols = _mm256_setr_ps(0, 1, 2, 3, 0, 1, 2, 3);
    const __m256 rows_lo = _mm256_setr_ps(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256 rows_hi = _mm256_setr_ps(2, 2, 2, 2, 3, 3, 3, 3);
    const __m256 du = _mm256_sub_ps(_mm256_set1_ps(u), _mm256_add_ps(_mm256_set1_ps(static_cast<float>(j0)), cols));
    const __m256 du2 = _mm256_mul_ps(du, du);
    const __m256 vi = _mm256_set1_ps(static_cast<float>(i0));
    const __m256 w2 = _mm256_set1_ps(w * w);
    const __m256 dv_lo = _mm256_sub_ps(_mm256_set1_ps(v), _mm256_add_ps(vi, rows_lo));
    const __m256 dv_hi = _mm256_sub_ps(_mm256_set1_ps(v), _mm256_add_ps(vi, rows_hi));
    const __m256 d2_lo = _mm256_add_ps(du2, _mm256_add_ps(_mm256_mul_ps(dv_lo, dv_lo), w2));
    const __m256 d2_hi = _mm256_add_ps(du2, _mm256_add_ps(_mm256_mul_ps(dv_hi, dv_hi), w2));
    const __m256 lim = _mm256_set1_ps(std::min(r2, t.radius2));
    const __m256 in_lo = _mm256_cmp_ps(d2_lo, lim, _CMP_LE_OQ);
    const __m256 in_hi = _mm256_cmp_ps(d2_hi, lim, _CMP_LE_OQ);
    if (_mm256_testz_ps(_mm256_or_ps(in_lo, in_hi), _mm256_or_ps(in_lo, in_hi))) return false;
    const __m256 step = _mm256_set1_ps(t.inv_step), halfv = _mm256_set1_ps(0.5f);
    const __m256i last = _mm256_set1_epi32(t.size - 1);
    // In-reach d2 <= a^2: the index is non-negative and small; out of reach lanes load nothing.
    // Multiply, then add (no FMA): the entry BlobTableView::nearest picks.
    const __m256i i_lo = _mm256_min_epi32(_mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(d2_lo, step), halfv)), last);
    const __m256i i_hi = _mm256_min_epi32(_mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(d2_hi, step), halfv)), last);
    const __m256 zero = _mm256_setzero_ps();
    const __m256 k_lo = _mm256_mask_i32gather_ps(zero, t.data, i_lo, in_lo, 4);
    const __m256 k_hi = _mm256_mask_i32gather_ps(zero, t.data, i_hi, in_hi, 4);
    const float* f = reinterpret_cast<const float*>(F);
    const std::ptrdiff_t row = 2 * static_cast<std::ptrdiff_t>(fx);
    const __m256 acc = weigh_two_rows(f + 2 * row, row, k_hi, weigh_two_rows(f, row, k_lo, zero));
    __m256 wsum;
    if (gw) {
      const __m256 g_lo = _mm256_loadu2_m128(gw + fx, gw);
      const __m256 g_hi = _mm256_loadu2_m128(gw + 3 * fx, gw + 2 * fx);
      wsum = _mm256_fmadd_ps(k_hi, g_hi, _mm256_mul_ps(k_lo, g_lo));
    } else {
      wsum = _mm256_add_ps(k_lo, k_hi);
    }
    sum_pairs(acc, gr, gi);
    ws = hsum8(wsum);
    return ws != 0.0f;
  }

  /// Radius below 1.5: rows 0 and 1 as one 8-lane vector, row 2 as a 4-lane one (the fourth row
  /// is out of reach). d^2 and the table index as in the 4-row window.
  static bool three_rows(const Cf* F, const float* gw, int fx, float u, float v, float w, int i0, int j0, float r2,
                         const BlobTableView& t, float& gr, float& gi, float& ws) {
    const __m256 cols = _mm256_setr_ps(0, 1, 2, 3, 0, 1, 2, 3);
    const __m256 rows01 = _mm256_setr_ps(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256 du = _mm256_sub_ps(_mm256_set1_ps(u), _mm256_add_ps(_mm256_set1_ps(static_cast<float>(j0)), cols));
    const __m256 du2 = _mm256_mul_ps(du, du);
    const __m256 w2 = _mm256_set1_ps(w * w);
    const __m256 dv01 = _mm256_sub_ps(_mm256_set1_ps(v), _mm256_add_ps(_mm256_set1_ps(static_cast<float>(i0)), rows01));
    const __m256 d2_01 = _mm256_add_ps(du2, _mm256_add_ps(_mm256_mul_ps(dv01, dv01), w2));
    const float dv2 = v - (static_cast<float>(i0) + 2.0f);
    const __m128 d2_2 = _mm_add_ps(_mm256_castps256_ps128(du2), _mm_set1_ps(dv2 * dv2 + w * w));
    const float limit = std::min(r2, t.radius2);
    const __m256 lim = _mm256_set1_ps(limit);
    const __m256 in01 = _mm256_cmp_ps(d2_01, lim, _CMP_LE_OQ);
    const __m128 in2 = _mm_cmp_ps(d2_2, _mm_set1_ps(limit), _CMP_LE_OQ);
    if (_mm256_testz_ps(in01, in01) && _mm_testz_ps(in2, in2)) return false;
    const __m256i last = _mm256_set1_epi32(t.size - 1);
    const __m256i i01 = _mm256_min_epi32(
        _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(d2_01, _mm256_set1_ps(t.inv_step)), _mm256_set1_ps(0.5f))), last);
    const __m128i i2 = _mm_min_epi32(
        _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(d2_2, _mm_set1_ps(t.inv_step)), _mm_set1_ps(0.5f))),
        _mm256_castsi256_si128(last));
    const __m256 k01 = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), t.data, i01, in01, 4);
    const __m128 k2 = _mm_mask_i32gather_ps(_mm_setzero_ps(), t.data, i2, in2, 4);
    const float* f = reinterpret_cast<const float*>(F);
    const std::ptrdiff_t row = 2 * static_cast<std::ptrdiff_t>(fx);
    const __m256 acc = weigh_row(f + 2 * row, _mm256_castps128_ps256(k2), false,
                                 weigh_two_rows(f, row, k01, _mm256_setzero_ps()));
    __m256 w01;
    __m128 w_2;
    if (gw) {
      w01 = _mm256_mul_ps(k01, _mm256_loadu2_m128(gw + fx, gw));
      w_2 = _mm_mul_ps(k2, _mm_loadu_ps(gw + 2 * fx));
    } else {
      w01 = k01;
      w_2 = k2;
    }
    sum_pairs(acc, gr, gi);
    __m128 s = _mm_add_ps(_mm_add_ps(_mm256_castps256_ps128(w01), _mm256_extractf128_ps(w01, 1)), w_2);
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    ws = _mm_cvtss_f32(s);
    return ws != 0.0f;
  }
};

/// voxel_on_slice for up to 8 voxels of a column at once: k of the column's voxels c0..c0+7 as
/// vectors, u, v, w as in voxel_on_slice, the three tests as a lane mask; then the accepted
/// voxels one at a time, in c order.
struct Avx2Column {
  template <class Visit>
  void operator()(const TraverseSpace& ts, const SampleView& s, float radius, int a, int b, int c0, int c1,
                  Visit&& visit) const {
    const float half = 0.5f * s.M;
    const auto& T = ts.transform_inv.m;
    const int dir = ts.dir;
    const __m256 lane = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    const float ka = static_cast<float>(a) - half, kb = static_cast<float>(b) - half;
    // (x, y, z) of the column: which of k is the moving one.
    const __m256 r2 = _mm256_set1_ps(radius * radius), nr = _mm256_set1_ps(-radius);
    const __m256 dmax = _mm256_set1_ps(ts.max_distance_sqr);
    const __m256 vhalf = _mm256_set1_ps(0.5f * s.fy);
    alignas(32) float us[8], vs[8], ws[8];
    for (int cs = c0; cs <= c1; cs += 8) {
      const __m256 kc = _mm256_sub_ps(_mm256_add_ps(_mm256_set1_ps(static_cast<float>(cs)), lane), _mm256_set1_ps(half));
      __m256 kx, ky, kz;
      if (dir == kPlaneXY) { kx = _mm256_set1_ps(ka); ky = _mm256_set1_ps(kb); kz = kc; }
      else if (dir == kPlaneXZ) { kx = _mm256_set1_ps(ka); ky = kc; kz = _mm256_set1_ps(kb); }
      else { kx = kc; ky = _mm256_set1_ps(ka); kz = _mm256_set1_ps(kb); }
      const __m256 d2 = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(kx, kx), _mm256_mul_ps(ky, ky)), _mm256_mul_ps(kz, kz));
      auto row = [&](int i) {
        return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(T[i][0]), kx), _mm256_mul_ps(_mm256_set1_ps(T[i][1]), ky)),
                             _mm256_mul_ps(_mm256_set1_ps(T[i][2]), kz));
      };
      const __m256 u = row(0), v = _mm256_add_ps(row(1), vhalf), w = row(2);
      __m256 ok = _mm256_cmp_ps(d2, dmax, _CMP_LE_OQ);
      ok = _mm256_and_ps(ok, _mm256_cmp_ps(u, nr, _CMP_GE_OQ));
      ok = _mm256_and_ps(ok, _mm256_cmp_ps(_mm256_mul_ps(w, w), r2, _CMP_LE_OQ));
      const int n = c1 - cs + 1;
      unsigned mask = static_cast<unsigned>(_mm256_movemask_ps(ok)) & (n >= 8 ? 0xffu : ((1u << n) - 1u));
      if (!mask) continue;
      _mm256_store_ps(us, u);
      _mm256_store_ps(vs, v);
      _mm256_store_ps(ws, w);
      while (mask) {
        const int l = __builtin_ctz(mask);
        mask &= mask - 1;
        visit(cs + l, us[l], vs[l], ws[l]);
      }
    }
  }
};

} // namespace

bool available() {
  static const bool ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return ok;
}

void gather_space_box(const TraverseSpace& ts, const SampleView& s, const BlobTableView& table, Real radius,
                      const VoxelBox& box, const CpuGridSink& sink) {
  const cpu_walk::WindowOrShared<Avx2Window> taps{s, ts, table, radius, radius * radius, cpu_walk::window_fits(s, radius), {},
                                                   cpu_walk::window_rows(radius)};
  cpu_walk::walk_box(ts, s, radius, box, sink, Avx2Column{}, taps);
}

bool window_taps(const Cf* F, const Real* gw, int fx, Real u, Real v, Real w, int i0, int j0, Real r2,
                 const BlobTableView& table, Real& gr, Real& gi, Real& ws, int rows) {
  return Avx2Window{}(F, gw, fx, u, v, w, i0, j0, r2, table, gr, gi, ws, rows);
}

} // namespace cpu_avx2
} // namespace FROST_RECON_PRECISION
} // namespace frost::recon

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else // no AVX2 copy in this build

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace cpu_avx2 {
bool available() { return false; }
void gather_space_box(const TraverseSpace&, const SampleView&, const BlobTableView&, Real, const VoxelBox&,
                      const CpuGridSink&) {}
bool window_taps(const Cf*, const Real*, int, Real, Real, Real, int, int, Real, const BlobTableView&, Real&, Real&,
                 Real&, int) {
  return false;
}
} // namespace cpu_avx2
} // namespace FROST_RECON_PRECISION
} // namespace frost::recon

#endif
