#include <cstdlib>
#include <new>

#include "frost/core/host_buffer.hpp"

#if FROST_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace frost {

namespace {
constexpr std::size_t kAlignment = 64; // cache line; also satisfies FFTW's SIMD alignment

void* aligned(std::size_t bytes) {
  const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
} // namespace

void* host_allocate(std::size_t bytes, HostMemory kind, HostMemory* actual) {
#if FROST_HAVE_CUDA
  if (kind == HostMemory::Pinned) {
    void* p = nullptr;
    // No driver or no GPU: fall back to pageable memory, which every caller can use.
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) == cudaSuccess) {
      *actual = HostMemory::Pinned;
      return p;
    }
    cudaGetLastError(); // clear the sticky error of the failed attempt
  }
#else
  (void)kind;
#endif
  *actual = HostMemory::Pageable;
  return aligned(bytes);
}

void host_free(void* p, HostMemory actual) noexcept {
#if FROST_HAVE_CUDA
  if (actual == HostMemory::Pinned) {
    cudaFreeHost(p);
    return;
  }
#else
  (void)actual;
#endif
  std::free(p);
}

} // namespace frost
