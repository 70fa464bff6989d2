#pragma once
/// @file pinned_memory.hpp
/// @brief Internal: the page-locked allocations under HostMemory::Pinned (host_memory.cpp keeps
/// freed blocks for reuse on top of these). A link-time seam as in libs/fft: defined by
/// cuda/core/src/pinned_memory.cpp (the CUDA runtime) in a build with CUDA, and by
/// src/pinned_memory_unavailable.cpp (no page-locked memory) without, so no libs/ source names
/// CUDA. Callers use HostBuffer / host_allocate, not these.
#include <cstddef>

namespace frost::detail {

/// A page-locked block of `bytes` bytes usable by every device, or nullptr where there is none
/// (no CUDA in the build, no driver or device, or the allocation failed); nothing is left pending.
void* allocate_page_locked(std::size_t bytes) noexcept;
/// Frees a block of allocate_page_locked.
void free_page_locked(void* p) noexcept;

} // namespace frost::detail
