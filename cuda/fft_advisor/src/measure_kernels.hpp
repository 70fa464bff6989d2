#pragma once
// Device helpers of the cuFFT measurer (docs/fft_advisor.md#the-cufft-measurer): deterministic
// input and L2 eviction.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace frost::fft::detail {

/// Fills `count` floats (or doubles) with deterministic pseudo-random values in [-1, 1): value i
/// depends only on (seed, i), so every refill of a buffer reproduces the same data.
void fill_uniform_async(float* data, std::size_t count, std::uint32_t seed, cudaStream_t stream);
void fill_uniform_async(double* data, std::size_t count, std::uint32_t seed, cudaStream_t stream);

/// Writes every 32-bit word of `words` words (values change with `round`), so that whatever the
/// L2 cache held before is evicted.
void scribble_async(std::uint32_t* data, std::size_t words, std::uint32_t round, cudaStream_t stream);

/// One thread spins for about `microseconds` of GPU time (global timer). Queued before the start
/// event, it keeps the GPU busy while the host enqueues the timed execution, so host launch
/// latency never lands inside the timed interval.
void spin_async(unsigned microseconds, cudaStream_t stream);

} // namespace frost::fft::detail
