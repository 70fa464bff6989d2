// Device helpers of the cuFFT measurer: a counter-based generator for the input (so refills are
// bit-identical without a stored copy) and a plain store loop that evicts the L2 cache.
#include <cstdint>

#include "frost/cuda/check.hpp"
#include "measure_kernels.hpp"

namespace frost::fft::detail {

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ std::uint64_t mix64(std::uint64_t z) {
  // SplitMix64 finaliser: a bijection with good avalanche; one call per element.
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__device__ __forceinline__ float to_unit(std::uint64_t bits, float) {
  return static_cast<float>(bits >> 40) * (1.0f / 16777216.0f) * 2.0f - 1.0f; // 24 bits
}
__device__ __forceinline__ double to_unit(std::uint64_t bits, double) {
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0; // 53 bits
}

template <class T>
__global__ void fill_kernel(T* data, std::int64_t count, std::uint64_t key) {
  const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    data[i] = to_unit(mix64(key ^ static_cast<std::uint64_t>(i)), T{});
}

__global__ void scribble_kernel(std::uint32_t* data, std::int64_t words, std::uint32_t round) {
  const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += stride)
    data[i] = static_cast<std::uint32_t>(i) ^ round;
}

__global__ void spin_kernel(unsigned long long nanoseconds) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

int blocks_for(std::size_t count) {
  const std::size_t wanted = (count + kThreads - 1) / kThreads;
  return static_cast<int>(wanted < 8192 ? (wanted > 0 ? wanted : 1) : 8192);
}

template <class T>
void fill(T* data, std::size_t count, std::uint32_t seed, cudaStream_t stream) {
  if (count == 0) return;
  // Spread the seed over the high bits so that element indices (low bits) never collide with it.
  const std::uint64_t key = (static_cast<std::uint64_t>(seed) << 40) * 0x9E3779B1ull;
  fill_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(data, static_cast<std::int64_t>(count), key);
  FROST_CHECK_LAUNCH();
}

} // namespace

void fill_uniform_async(float* data, std::size_t count, std::uint32_t seed, cudaStream_t stream) {
  fill(data, count, seed, stream);
}
void fill_uniform_async(double* data, std::size_t count, std::uint32_t seed, cudaStream_t stream) {
  fill(data, count, seed, stream);
}

void spin_async(unsigned microseconds, cudaStream_t stream) {
  if (microseconds == 0) return;
  spin_kernel<<<1, 1, 0, stream>>>(1000ull * microseconds);
  FROST_CHECK_LAUNCH();
}

void scribble_async(std::uint32_t* data, std::size_t words, std::uint32_t round, cudaStream_t stream) {
  if (words == 0) return;
  scribble_kernel<<<blocks_for(words), kThreads, 0, stream>>>(data, static_cast<std::int64_t>(words), round);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::fft::detail
