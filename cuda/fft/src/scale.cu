// Explicit normalisation on the device: one grid-stride kernel.
#include <cstdint>

#include "frost/cuda/check.hpp"
#include "frost/cuda/fft.hpp"

namespace frost::cuda {

namespace {

__global__ void scale_kernel(float* data, std::int64_t count, float factor) {
  const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    data[i] *= factor;
}

} // namespace

void scale_async(float* data, std::size_t count, float factor, cudaStream_t stream) {
  if (count == 0) return;
  constexpr int threads = 256;
  // Enough blocks to fill any current GPU; the grid-stride loop covers the rest.
  const std::size_t wanted = (count + threads - 1) / threads;
  const int blocks = static_cast<int>(wanted < 65536 ? wanted : 65536);
  scale_kernel<<<blocks, threads, 0, stream>>>(data, static_cast<std::int64_t>(count), factor);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda
