#pragma once
// Launch geometry shared by the motion kernels: 1-D grid-stride loops over 64-bit element counts
// (simple indexing first; every kernel checks its bounds).
#include <cuda_runtime.h>

#include <string>

#include "frost/core/error.hpp"
#include "frost/core/shape.hpp"

namespace frost::cuda::motion_kernels {

constexpr int kThreads = 256;

/// Blocks for n elements at kThreads per block, capped (the loops stride over the rest).
inline unsigned int blocks_for(index_t n) {
  const index_t b = (n + kThreads - 1) / kThreads;
  const index_t cap = 65535L * 8;
  return static_cast<unsigned int>(b < 1 ? 1 : (b > cap ? cap : b));
}

/// A 2-D block of bx x by threads (tunable kernels); frost::Error(Usage) outside 1..1024 threads.
inline dim3 block_2d(int bx, int by, const char* what) {
  if (bx < 1 || by < 1 || bx * by > 1024 || bx > 1024 || by > 1024)
    FROST_THROW(ExitCode::Usage, std::string(what) + ": block " + std::to_string(bx) + "x" + std::to_string(by) +
                                     " is outside 1..1024 threads");
  return dim3(static_cast<unsigned>(bx), static_cast<unsigned>(by), 1);
}

/// The grid over an nx x ny plane in tiles of tx x ty elements, times `count` planes along z
/// (capped at 65535; the kernels stride over the rest). Throws when the plane needs more than
/// 65535 blocks along y.
inline dim3 grid_2d(index_t nx, index_t ny, int count, index_t tx, index_t ty) {
  const index_t gx = (nx + tx - 1) / tx, gy = (ny + ty - 1) / ty;
  if (gy > 65535 || gx > 2147483647L)
    FROST_THROW(ExitCode::Usage, "launch grid " + std::to_string(gx) + "x" + std::to_string(gy) + " exceeds the limits");
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(count < 65535 ? count : 65535));
}

__device__ inline index_t global_thread() {
  return static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline index_t grid_stride() { return static_cast<index_t>(gridDim.x) * blockDim.x; }

} // namespace frost::cuda::motion_kernels
