#pragma once
// Device helpers shared by the fused (fused_kernels.cu) and tiled (tiled_shift_kernels.cu) steps.
#include <cuda_runtime.h>

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

/// Component c (0 = A = real part, 1 = B = imaginary part) of a complex value.
__device__ inline float part(float2 v, int c) { return c == 0 ? v.x : v.y; }

} // namespace frost::cuda::align_device
