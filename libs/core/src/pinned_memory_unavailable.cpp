// Page-locked memory in a build without CUDA (FROST_USE_CUDA=OFF): there is none, so a pinned
// request gets pageable memory (host_allocate).
#include "frost/core/pinned_memory.hpp"

namespace frost::detail {

void* allocate_page_locked(std::size_t) noexcept { return nullptr; }
void free_page_locked(void*) noexcept {}

} // namespace frost::detail
