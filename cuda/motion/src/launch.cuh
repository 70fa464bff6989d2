#pragma once
// Launch geometry shared by the motion kernels: 1-D grid-stride loops over 64-bit element counts
// (simple indexing first; every kernel checks its bounds).
#include <cuda_runtime.h>

#include "frost/core/shape.hpp"

namespace frost::cuda::motion_kernels {

constexpr int kThreads = 256;

/// Blocks for n elements at kThreads per block, capped (the loops stride over the rest).
inline unsigned int blocks_for(index_t n) {
  const index_t b = (n + kThreads - 1) / kThreads;
  const index_t cap = 65535L * 8;
  return static_cast<unsigned int>(b < 1 ? 1 : (b > cap ? cap : b));
}

__device__ inline index_t global_thread() {
  return static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline index_t grid_stride() { return static_cast<index_t>(gridDim.x) * blockDim.x; }

} // namespace frost::cuda::motion_kernels
