#include "frost/cuda/staged_copy.hpp"

#include <algorithm>
#include <cstring>

#include "frost/core/host_buffer.hpp"
#include "frost/core/threads.hpp"
#include "frost/cuda/device_buffer.hpp"

namespace frost::cuda {

namespace {
constexpr std::size_t kChunk = std::size_t{4} << 20;
constexpr std::size_t kPiece = std::size_t{256} << 10; // one thread's share of a chunk

// dst <- src (n bytes) on the CPU threads, a piece each.
void parallel_copy(unsigned char* dst, const unsigned char* src, std::size_t n) {
  const auto pieces = static_cast<long>((n + kPiece - 1) / kPiece);
  const int threads = static_cast<int>(std::max<long>(1, std::min<long>(num_threads(), pieces)));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long p = 0; p < pieces; ++p) {
    const std::size_t off = static_cast<std::size_t>(p) * kPiece;
    std::memcpy(dst + off, src + off, std::min(kPiece, n - off));
  }
}
} // namespace

void download_staged(void* host, const void* device, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  HostBuffer<unsigned char> bounce[2] = {HostBuffer<unsigned char>(std::min(kChunk, bytes), HostMemory::Pinned),
                                         HostBuffer<unsigned char>(std::min(kChunk, bytes), HostMemory::Pinned)};
  if (bounce[0].memory() != HostMemory::Pinned || bounce[1].memory() != HostMemory::Pinned) {
    FROST_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream));
    FROST_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  const auto* src = static_cast<const unsigned char*>(device);
  auto* dst = static_cast<unsigned char*>(host);
  const std::size_t chunks = (bytes + kChunk - 1) / kChunk;
  const Event arrived[2] = {Event(cudaEventDisableTiming), Event(cudaEventDisableTiming)};
  const auto issue = [&](std::size_t c) {
    const std::size_t off = c * kChunk, n = std::min(kChunk, bytes - off);
    FROST_CUDA_CHECK(cudaMemcpyAsync(bounce[c % 2].data(), src + off, n, cudaMemcpyDeviceToHost, stream));
    arrived[c % 2].record(stream);
  };
  try {
    issue(0);
    for (std::size_t c = 0; c < chunks; ++c) {
      // Block (c + 1) % 2 held chunk c - 1, already moved out in the previous turn.
      if (c + 1 < chunks) issue(c + 1);
      arrived[c % 2].synchronize();
      const std::size_t off = c * kChunk;
      parallel_copy(dst + off, bounce[c % 2].data(), std::min(kChunk, bytes - off));
    }
  } catch (...) {
    cudaStreamSynchronize(stream); // no copy may outlive its block
    throw;
  }
}

} // namespace frost::cuda
