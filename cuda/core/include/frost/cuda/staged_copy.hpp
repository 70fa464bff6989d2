#pragma once
/// @file staged_copy.hpp
/// @brief Device -> pageable host copies through small pinned blocks.
#include <cuda_runtime.h>

#include <cstddef>

namespace frost::cuda {

/// Copies `bytes` from device memory to pageable host memory, after the work already queued on
/// `stream`, and returns when they have arrived. The bytes go in 4 MiB chunks through two pinned
/// blocks (from the pinned cache, host_buffer.hpp): while the DMA fills one block, CPU threads
/// move the other into `host`. Faster than the driver's pageable copy (one thread) and, unlike a
/// pinned destination, needs no page-locking of the destination (slow, and it stalls other
/// threads' CUDA calls). Without pinned memory it falls back to one pageable cudaMemcpyAsync.
void download_staged(void* host, const void* device, std::size_t bytes, cudaStream_t stream);

} // namespace frost::cuda
