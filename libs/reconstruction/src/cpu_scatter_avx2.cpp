// The CPU scatter walk compiled for AVX2 + FMA (docs/reconstruct_fourier.md#the-separable-kernel):
// the target switches after the shared headers, so only the walk below uses those instructions.
#include "cpu_scatter_avx2.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "frost/reconstruction/cpu_gather.hpp"
#include "frost/reconstruction/scatter.hpp"

#if !FROST_RECON_DOUBLE && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
// The standard headers above come before the target switch: clang applies the target only to
// functions declared after it.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
// Included after the target switch: the walk template is instantiated here for AVX2 only.
#include "cpu_scatter_walk.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace cpu_avx2 {
namespace {

/// One x row of a window: the 4 complex values as one 8-float vector, the 4 weights as one
/// 4-float vector; the window's table factors 4 lanes at a time.
struct VectorRow : cpu_scatter_walk::LoopRow {
  template <class Window>
  void window_weights(const Window& win, float px, float py, float pz, float* kx, float* ky, float* kz, int& ox,
                      int& oy, int& oz) const {
    if constexpr (std::is_same_v<Window, TableWindow>) {
      // The three axes of TableWindow as lanes x, y, z: window_origin, the offset, the row and
      // the fraction with the scalar code's operations.
      const WindowTableView& t = win.table;
      const __m128 p4 = _mm_setr_ps(px, py, pz, 0.0f);
      const __m128 fl = _mm_floor_ps(t.window == 3 ? _mm_add_ps(p4, _mm_set1_ps(0.5f)) : p4);
      const __m128i o = _mm_sub_epi32(_mm_cvttps_epi32(fl), _mm_set1_epi32(1));
      const __m128 x = _mm_mul_ps(
          _mm_sub_ps(_mm_sub_ps(p4, _mm_cvtepi32_ps(_mm_add_epi32(o, _mm_set1_epi32(1)))), _mm_set1_ps(t.t0)),
          _mm_set1_ps(t.inv_step));
      const __m128i r = _mm_min_epi32(_mm_max_epi32(_mm_cvttps_epi32(x), _mm_setzero_si128()), _mm_set1_epi32(t.rows - 2));
      const __m128 f = _mm_sub_ps(x, _mm_cvtepi32_ps(r));
      alignas(16) int oi[4], ri[4];
      _mm_store_si128(reinterpret_cast<__m128i*>(oi), o);
      _mm_store_si128(reinterpret_cast<__m128i*>(ri), r);
      auto axis = [&](int lane, __m128 fa, float* k) {
        const __m128 a = _mm_loadu_ps(t.data + 4 * ri[lane]), b = _mm_loadu_ps(t.data + 4 * ri[lane] + 4);
        _mm_store_ps(k, _mm_add_ps(a, _mm_mul_ps(fa, _mm_sub_ps(b, a))));
      };
      axis(0, _mm_shuffle_ps(f, f, 0x00), kx);
      axis(1, _mm_shuffle_ps(f, f, 0x55), ky);
      axis(2, _mm_shuffle_ps(f, f, 0xaa), kz);
      ox = oi[0];
      oy = oi[1];
      oz = oi[2];
    } else {
      cpu_scatter_walk::window_weights_scalar(win, px, py, pz, kx, ky, kz, ox, oy, oz);
    }
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
    auto row = [&](float* gr, float* wr, __m256 k8) {
      _mm256_storeu_ps(gr, _mm256_fmadd_ps(k8, gx8, _mm256_loadu_ps(gr)));
      _mm_storeu_ps(wr, _mm_fmadd_ps(_mm256_castps256_ps128(k8), wx4, _mm_loadu_ps(wr)));
    };
    if (nc == 3 && nb == 3) {
      // The whole window of 3 x 3 rows (the common case), unrolled.
      const __m256 y0 = _mm256_set1_ps(ky[0]), y1 = _mm256_set1_ps(ky[1]), y2 = _mm256_set1_ps(ky[2]);
      for (int c = 0; c < 3; ++c) {
        const __m256 kzc = _mm256_set1_ps(kz[c]);
        float* gc = g + 2 * c * plane;
        float* wc = w + c * plane;
        row(gc, wc, _mm256_mul_ps(kzc, y0));
        row(gc + 2 * side, wc + side, _mm256_mul_ps(kzc, y1));
        row(gc + 4 * side, wc + 2 * side, _mm256_mul_ps(kzc, y2));
      }
      return;
    }
    for (int c = 0; c < nc; ++c) {
      const __m256 kzc = _mm256_set1_ps(kz[c]);
      float* gc = g + 2 * c * plane;
      float* wc = w + c * plane;
      for (int b = 0; b < nb; ++b, gc += 2 * side, wc += side) row(gc, wc, _mm256_mul_ps(kzc, _mm256_set1_ps(ky[b])));
    }
  }
  void sphere_lanes(float* g, float* w, float k, const float* dx2, float left, const float* gx,
                    const float* wx) const {
    alignas(16) float k4[4];
    _mm_store_ps(k4, _mm_and_ps(_mm_cmp_ps(_mm_loadu_ps(dx2), _mm_set1_ps(left), _CMP_LE_OQ), _mm_set1_ps(k)));
    lanes(g, w, k4, gx, wx);
  }
  void lanes(float* g, float* w, const float* k4, const float* gx, const float* wx) const {
    const __m128 k = _mm_loadu_ps(k4);
    const __m256 k8 = _mm256_permutevar8x32_ps(_mm256_castps128_ps256(k), _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3));
    _mm256_storeu_ps(g, _mm256_fmadd_ps(k8, _mm256_loadu_ps(gx), _mm256_loadu_ps(g)));
    _mm_storeu_ps(w, _mm_fmadd_ps(k, _mm_loadu_ps(wx), _mm_loadu_ps(w)));
  }
};

} // namespace

void scatter_space_box(const TraverseSpace& ts, const SampleView& s, const WindowTableView& table, const VoxelBox& box,
                       const CpuGridSink& sink) {
  cpu_scatter_walk::scatter_box(ts, s, TableWindow{table}, box, sink, VectorRow{});
}

void scatter_space_box(const TraverseSpace& ts, const SampleView& s, const DynamicWeight& dynamic, Real radius,
                       const VoxelBox& box, const CpuGridSink& sink) {
  cpu_scatter_walk::scatter_box(ts, s, DynamicWindow{dynamic, scatter_window(radius)}, box, sink, VectorRow{});
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
void scatter_space_box(const TraverseSpace&, const SampleView&, const WindowTableView&, const VoxelBox&,
                       const CpuGridSink&) {}
void scatter_space_box(const TraverseSpace&, const SampleView&, const DynamicWeight&, Real, const VoxelBox&,
                       const CpuGridSink&) {}
} // namespace cpu_avx2
} // namespace FROST_RECON_PRECISION
} // namespace frost::recon

#endif
