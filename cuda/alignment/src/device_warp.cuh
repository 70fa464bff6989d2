#pragma once
// Device helpers shared by the fused (fused_kernels.cu) and tiled (tiled_shift_kernels.cu) steps.
#include <cuda_runtime.h>

#include "block_fft.cuh"
#include "frost/alignment/math/pose2d.hpp"
#include "frost/alignment/math/warp.hpp"

namespace frost::cuda::align_device {

/// align::warp_pixel of an x × x image with 32-bit indexing (the shared one indexes in 64 bits for
/// any image the CPU may hold); the same value.
__device__ inline float warp_at(const float* __restrict__ img, int x, const align::Pose2& inv, int i, int j) {
  float u, v;
  if (!align::warp_source(x, x, inv, i, j, u, v)) return 0.0f;
  return align::bilinear_at([img, x](int a, int b) { return __ldg(img + b * x + a); }, u, v);
}

/// Pixel (i, j) of the aligned images of trajectories A and B as one complex value A + iB: the
/// raw images' pixels when `first` (the identity pose), else W_A[a], W_B[b] through the inverse
/// poses inv_a, inv_b; b null: B = 0.
__device__ inline float2 pair_pixel(const float* a, const float* b, int x, bool first, const align::Pose2& inv_a,
                                    const align::Pose2& inv_b, int i, int j) {
  if (first) return make_float2(a[j * x + i], b ? b[j * x + i] : 0.0f);
  return make_float2(warp_at(a, x, inv_a, i, j), b ? warp_at(b, x, inv_b, i, j) : 0.0f);
}

/// The shift correlation's product (step 2 of docs/align_significant.md#shift-step) at ω and −ω of two
/// trajectories in one complex spectrum Z: zp ← F_R(ω)·Z(−ω)·sign and zq ← F_R(−ω)·Z(ω)·sign, with F_R(−ω) =
/// conj F_R(ω) for the real reference (one read, f = F_R(ω)); `self` when ω = −ω (zp and zq are one value).
__device__ inline void shift_product_pair(float2& zp, float2& zq, float2 f, float sign, bool self) {
  const float2 a = zp, b = zq;
  const float2 yp = block_fft::cmul(f, b);
  zp = make_float2(sign * yp.x, sign * yp.y);
  if (self) return;
  const float2 yq = block_fft::cmul(block_fft::conj_of(f), a);
  zq = make_float2(sign * yq.x, sign * yq.y);
}

/// Rows [lo, lo + need) of an x × x shift correlation that the peak search and its refinement
/// read (|dy| <= radius + 1), or all of them.
struct PeakRows {
  int lo, need;
};
__host__ __device__ inline PeakRows peak_rows(int x, int radius) {
  const int lo = x / 2 - radius - 1, need = 2 * radius + 3;
  if (lo < 0 || lo + need > x) return {0, x};
  return {lo, need};
}

/// Component c (0 = A = real part, 1 = B = imaginary part) of a complex value.
__device__ inline float part(float2 v, int c) { return c == 0 ? v.x : v.y; }

} // namespace frost::cuda::align_device
