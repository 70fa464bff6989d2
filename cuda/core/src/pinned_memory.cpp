// The CUDA half of frost_core's page-locked allocations (frost/core/pinned_memory.hpp): only the
// runtime API, so this stays a host-compiler translation unit (frost_cuda_device_info).
#include <cuda_runtime.h>

#include "frost/core/pinned_memory.hpp"

namespace frost::detail {

void* allocate_page_locked(std::size_t bytes) noexcept {
  void* p = nullptr;
  // Portable: the block serves copies on whichever device is current.
  if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
    cudaGetLastError(); // clear the error of the failed attempt (no driver, no device, no memory)
    return nullptr;
  }
  return p;
}

void free_page_locked(void* p) noexcept { cudaFreeHost(p); }

} // namespace frost::detail
