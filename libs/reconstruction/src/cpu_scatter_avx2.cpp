// The CPU scatter walk compiled for AVX2 + FMA (docs/reconstruct_fourier.md#the-separable-kernel):
// the target switches after the shared headers, so only the walk below uses those instructions.
#include "cpu_scatter_avx2.hpp"

#include "frost/reconstruction/scatter.hpp"

#if !FROST_RECON_DOUBLE && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
// Included after the target switch: the walk template is instantiated here for AVX2 only.
#include "cpu_scatter_walk.hpp"

#include <immintrin.h>

#include <cmath>
#include <cstring>
#include <type_traits>

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace cpu_avx2 {
namespace {

/// One axis of axis_weights with the table lookup of TableWeight, 4 lanes at once: the same
/// float operations (no contraction in this file), so the same factors.
inline int axis_weights_table(float p, int window, const BlobTableView& t, float* k) {
  const int o = static_cast<int>(std::floor(window == 3 ? p + 0.5f : p)) - 1;
  const __m128 d = _mm_sub_ps(_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(o), _mm_setr_epi32(0, 1, 2, 3))),
                              _mm_set1_ps(p));
  const __m128 d2 = _mm_mul_ps(d, d);
  __m128 in = _mm_cmp_ps(d2, _mm_set1_ps(t.radius2), _CMP_LE_OQ);
  if (window == 3) in = _mm_and_ps(in, _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0)));
  const __m128i i = _mm_min_epi32(_mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(d2, _mm_set1_ps(t.inv_step)), _mm_set1_ps(0.5f))),
                                  _mm_set1_epi32(t.size - 1));
  _mm_store_ps(k, _mm_mask_i32gather_ps(_mm_setzero_ps(), t.data, i, in, 4));
  return o;
}

/// One x row of a window: the 4 complex values as one 8-float vector, the 4 weights as one
/// 4-float vector; the window's table factors 4 lanes at a time.
struct VectorRow {
  template <int W, class Weight>
  void window_weights(const Weight& weight, float px, float py, float pz, float* kx, float* ky, float* kz, int& ox,
                      int& oy, int& oz) const {
    if constexpr (std::is_same_v<Weight, TableWeight>) {
      ox = axis_weights_table(px, W, weight.table, kx);
      oy = axis_weights_table(py, W, weight.table, ky);
      oz = axis_weights_table(pz, W, weight.table, kz);
    } else {
      cpu_scatter_walk::window_weights_scalar<W>(weight, px, py, pz, kx, ky, kz, ox, oy, oz);
    }
  }
  void operator()(float* g, float* w, float k, const float* gx, const float* wx) const {
    const __m256 k8 = _mm256_set1_ps(k);
    _mm256_storeu_ps(g, _mm256_fmadd_ps(k8, _mm256_loadu_ps(gx), _mm256_loadu_ps(g)));
    _mm_storeu_ps(w, _mm_fmadd_ps(_mm256_castps256_ps128(k8), _mm_loadu_ps(wx), _mm_loadu_ps(w)));
  }
  void window(float* g, float* w, std::size_t side, std::size_t plane, int nc, int nb, const float* kx,
              const float* ky, const float* kz, Cf f, float gfac, float iw) const {
    const __m128 kx4 = _mm_mul_ps(_mm_loadu_ps(kx), _mm_set1_ps(iw));
    const __m256 kxd = _mm256_permutevar8x32_ps(_mm256_castps128_ps256(kx4), _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3));
    double fd;
    static_assert(sizeof(fd) == sizeof(f), "a complex float is two floats");
    std::memcpy(&fd, &f, sizeof(fd));
    const __m256 gx8 = _mm256_mul_ps(kxd, _mm256_castpd_ps(_mm256_set1_pd(fd)));
    const __m128 wx4 = _mm_mul_ps(kx4, _mm_set1_ps(gfac));
    for (int c = 0; c < nc; ++c) {
      const __m256 kzc = _mm256_set1_ps(kz[c]);
      float* gc = g + 2 * c * plane;
      float* wc = w + c * plane;
      for (int b = 0; b < nb; ++b, gc += 2 * side, wc += side) {
        const __m256 k8 = _mm256_mul_ps(kzc, _mm256_set1_ps(ky[b]));
        _mm256_storeu_ps(gc, _mm256_fmadd_ps(k8, gx8, _mm256_loadu_ps(gc)));
        _mm_storeu_ps(wc, _mm_fmadd_ps(_mm256_castps256_ps128(k8), wx4, _mm_loadu_ps(wc)));
      }
    }
  }
  void lanes(float* g, float* w, const float* k4, const float* gx, const float* wx) const {
    const __m128 k = _mm_loadu_ps(k4);
    const __m256 k8 = _mm256_permutevar8x32_ps(_mm256_castps128_ps256(k), _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3));
    _mm256_storeu_ps(g, _mm256_fmadd_ps(k8, _mm256_loadu_ps(gx), _mm256_loadu_ps(g)));
    _mm_storeu_ps(w, _mm_fmadd_ps(k, _mm_loadu_ps(wx), _mm_loadu_ps(w)));
  }
};

} // namespace

void scatter_space_box(const TraverseSpace& ts, const SampleView& s, const BlobTableView& table, Real radius,
                       const VoxelBox& box, const CpuGridSink& sink) {
  cpu_scatter_walk::scatter_box(ts, s, TableWeight{table}, radius, box, sink, VectorRow{});
}

void scatter_space_box(const TraverseSpace& ts, const SampleView& s, const DynamicWeight& dynamic, Real radius,
                       const VoxelBox& box, const CpuGridSink& sink) {
  cpu_scatter_walk::scatter_box(ts, s, dynamic, radius, box, sink, VectorRow{});
}

} // namespace cpu_avx2
} // namespace FROST_RECON_PRECISION
} // namespace frost::recon

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else // no AVX2 copy in this build: cpu_avx2::available() is false and these are never called

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace cpu_avx2 {
void scatter_space_box(const TraverseSpace&, const SampleView&, const BlobTableView&, Real, const VoxelBox&,
                       const CpuGridSink&) {}
void scatter_space_box(const TraverseSpace&, const SampleView&, const DynamicWeight&, Real, const VoxelBox&,
                       const CpuGridSink&) {}
} // namespace cpu_avx2
} // namespace FROST_RECON_PRECISION
} // namespace frost::recon

#endif
