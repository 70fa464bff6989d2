// The malloc limits (docs/conventions.md#host-memory). glibc gives new threads arenas of their own,
// up to 8 per core, and an arena other than the main one keeps the free memory at its top up to the
// trim threshold, which malloc_trim does not release and which glibc raises to 64 MiB after the first
// large free. A session starts reader, loader and writer threads for every movie, so its freed
// buffers settled in ever more arenas and resident memory crept up movie after movie although the
// live memory was flat. A fixed small trim threshold bounds what each arena keeps; the arena cap
// bounds how many there are.
#include "frost/core/heap_limits.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "frost/core/threads.hpp"

// A sanitizer whose allocator replaces glibc's malloc (address, thread or memory).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FROST_SANITIZER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define FROST_SANITIZER_ALLOCATOR 1
#endif
#endif

namespace frost {

namespace {
/// Whether the user set a malloc variable or any malloc tunable, which then stands.
bool user_sets(const char* variable, const char* tunable) {
  const char* v = std::getenv(variable);
  if (v != nullptr && *v != '\0') return true;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables != nullptr && std::strstr(tunables, tunable) != nullptr;
}
} // namespace

int heap_arena_limit() { return std::max(4, num_threads()); }

void set_heap_limits() noexcept {
#ifdef __GLIBC__
  if (!user_sets("MALLOC_ARENA_MAX", "glibc.malloc.arena_max")) ::mallopt(M_ARENA_MAX, heap_arena_limit());
  // Setting either threshold also ends glibc's adaptive raising of both.
  if (!user_sets("MALLOC_MMAP_THRESHOLD_", "glibc.malloc.mmap_threshold"))
    ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(kHeapMapBytes));
  if (!user_sets("MALLOC_TRIM_THRESHOLD_", "glibc.malloc.trim_threshold"))
    ::mallopt(M_TRIM_THRESHOLD, static_cast<int>(kHeapTrimBytes));
#endif
}

void release_free_heap() noexcept {
#if defined(__GLIBC__) && !defined(FROST_SANITIZER_ALLOCATOR)
  ::malloc_trim(0);
#endif
}

} // namespace frost
