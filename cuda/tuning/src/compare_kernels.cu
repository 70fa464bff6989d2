// The verification of docs/tune.md#offline-protocol on the device: the largest |output - reference|
// and |reference| over n floats, reduced per block in shared memory and across blocks with atomicMax
// on the bit patterns (non-negative floats order like unsigned integers), so that verifying a
// configuration of a kernel with a large output (a reconstruction cube) needs no download.
#include <cmath>
#include <cstring>
#include <limits>

#include "frost/cuda/check.hpp"
#include "frost/cuda/tuning.hpp"

namespace frost::cuda {
namespace {

constexpr int kCompareThreads = 256;

/// out[0]: bits of max |o - r|; out[1]: bits of max |r|; out[2]: 1 when an output is not finite
/// where the reference is.
__global__ void compare_kernel(const float* reference, const float* output, std::size_t n, unsigned* out) {
  __shared__ float s_diff[kCompareThreads], s_ref[kCompareThreads];
  float diff = 0.0f, ref = 0.0f;
  bool bad = false;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float r = reference[i], o = output[i];
    if (!isfinite(o) && isfinite(r)) bad = true;
    ref = fmaxf(ref, fabsf(r));
    diff = fmaxf(diff, fabsf(o - r));
  }
  if (bad) out[2] = 1u;
  s_diff[threadIdx.x] = diff;
  s_ref[threadIdx.x] = ref;
  __syncthreads();
  for (int k = kCompareThreads / 2; k > 0; k /= 2) {
    if (static_cast<int>(threadIdx.x) < k) {
      s_diff[threadIdx.x] = fmaxf(s_diff[threadIdx.x], s_diff[threadIdx.x + k]);
      s_ref[threadIdx.x] = fmaxf(s_ref[threadIdx.x], s_ref[threadIdx.x + k]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicMax(out, __float_as_uint(s_diff[0]));
    atomicMax(out + 1, __float_as_uint(s_ref[0]));
  }
}

} // namespace

double device_relative_max_difference(const float* reference, const float* output, std::size_t n,
                                      cudaStream_t stream) {
  DeviceBuffer<unsigned> result(3);
  FROST_CUDA_CHECK(cudaMemsetAsync(result.data(), 0, 3 * sizeof(unsigned), stream));
  if (n > 0) {
    const std::size_t blocks = (n + kCompareThreads - 1) / kCompareThreads;
    compare_kernel<<<static_cast<unsigned>(blocks < 4096 ? blocks : 4096), kCompareThreads, 0, stream>>>(
        reference, output, n, result.data());
    FROST_CUDA_CHECK(cudaGetLastError());
  }
  unsigned host[3] = {0, 0, 0};
  FROST_CUDA_CHECK(cudaMemcpyAsync(host, result.data(), sizeof(host), cudaMemcpyDeviceToHost, stream));
  FROST_CUDA_CHECK(cudaStreamSynchronize(stream));
  float diff = 0, ref = 0;
  static_assert(sizeof(float) == sizeof(unsigned), "32-bit floats");
  std::memcpy(&diff, &host[0], sizeof(float));
  std::memcpy(&ref, &host[1], sizeof(float));
  // A NaN difference has bits above every finite value's: it reads back as NaN.
  if (host[2] != 0u || std::isnan(diff) || std::isinf(diff)) return std::numeric_limits<double>::infinity();
  if (ref == 0.0f) return diff == 0.0f ? 0.0 : std::numeric_limits<double>::infinity();
  return static_cast<double>(diff) / static_cast<double>(ref);
}

} // namespace frost::cuda
