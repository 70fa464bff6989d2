// HostBuffer's allocations: 64-byte aligned pageable memory, and pinned blocks from the
// page-locked seam (pinned_memory.hpp) kept for reuse once freed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

#include <unistd.h>

#include "frost/core/host_buffer.hpp"
#include "frost/core/pinned_memory.hpp"
#include "frost/core/threads.hpp"

namespace frost {

namespace {
constexpr std::size_t kAlignment = 64; // cache line; also satisfies FFTW's SIMD alignment

void* aligned(std::size_t bytes) {
  const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

// Pinned blocks are kept for reuse when freed (up to a cap): page-locking is slow and holds the
// driver's lock meanwhile, stalling other threads' launches, so a batch of
// movies pins its staging once instead of once per movie. Sizes are rounded up to 64 KiB so that
// nearly equal requests share blocks; a free block up to twice the request is reused.
constexpr std::size_t kPinnedGranule = std::size_t{64} << 10;

std::size_t pinned_cache_cap() {
  static const std::size_t cap = [] {
    const char* v = std::getenv("FROST_PINNED_CACHE_MB");
    if (v == nullptr || *v == '\0') return std::size_t{1024} << 20;
    char* end = nullptr;
    const long long mb = std::strtoll(v, &end, 10);
    return (end != v && mb > 0) ? static_cast<std::size_t>(mb) << 20 : std::size_t{0};
  }();
  return cap;
}

struct PinnedCache {
  std::mutex mutex;
  std::unordered_map<void*, std::size_t> live; ///< size of every pinned block handed out
  std::multimap<std::size_t, void*> free;      ///< kept blocks by size
  std::size_t free_bytes = 0;
};

// Never destroyed: freeing pinned memory after the CUDA runtime shut down in static destruction
// is an error; the kept blocks go with the process.
PinnedCache& pinned_cache() {
  static auto* cache = new PinnedCache;
  return *cache;
}

void* pinned_allocate(std::size_t bytes) {
  const std::size_t rounded = (bytes + kPinnedGranule - 1) / kPinnedGranule * kPinnedGranule;
  PinnedCache& c = pinned_cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    const auto it = c.free.lower_bound(rounded);
    if (it != c.free.end() && it->first <= 2 * rounded) {
      void* p = it->second;
      c.free_bytes -= it->first;
      c.live[p] = it->first;
      c.free.erase(it);
      return p;
    }
  }
  void* p = detail::allocate_page_locked(rounded);
  if (p == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(c.mutex);
  c.live[p] = rounded;
  return p;
}

void pinned_free(void* p) noexcept {
  PinnedCache& c = pinned_cache();
  std::size_t size = 0;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    const auto it = c.live.find(p);
    if (it != c.live.end()) {
      size = it->second;
      c.live.erase(it);
      if (c.free_bytes + size <= pinned_cache_cap()) {
        c.free.emplace(size, p);
        c.free_bytes += size;
        return;
      }
    }
  }
  detail::free_page_locked(p);
}
} // namespace

void* host_allocate(std::size_t bytes, HostMemory kind, HostMemory* actual) {
  if (kind == HostMemory::Pinned) {
    // No CUDA in the build, no driver or no GPU: fall back to pageable memory, which every caller
    // can use.
    if (void* p = pinned_allocate(bytes)) {
      *actual = HostMemory::Pinned;
      return p;
    }
  }
  *actual = HostMemory::Pageable;
  return aligned(bytes);
}

void host_free(void* p, HostMemory actual) noexcept {
  if (actual == HostMemory::Pinned) {
    pinned_free(p);
    return;
  }
  std::free(p);
}

void host_prefault(void* p, std::size_t bytes) {
  if (p == nullptr || bytes == 0) return;
  static const auto page = static_cast<std::size_t>(std::max(4096L, ::sysconf(_SC_PAGESIZE)));
  auto* base = static_cast<unsigned char*>(p);
  const std::size_t first = (page - reinterpret_cast<std::uintptr_t>(base) % page) % page; // first page start
  const std::size_t span = std::size_t{1} << 20;                                            // one thread's share
  const auto spans = static_cast<long>((bytes + span - 1) / span);
  base[0] = 0; // the page holding the start, when it is not a page start
#pragma omp parallel for num_threads(static_cast<int>(std::max(1L, std::min<long>(num_threads(), spans)))) schedule(static)
  for (long k = 0; k < spans; ++k) {
    const std::size_t end = std::min(bytes, (static_cast<std::size_t>(k) + 1) * span);
    for (std::size_t i = first + static_cast<std::size_t>(k) * span; i < end; i += page) base[i] = 0;
  }
}

std::size_t pinned_cache_free_bytes() noexcept {
  PinnedCache& c = pinned_cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.free_bytes;
}

std::size_t pinned_live_bytes() noexcept {
  PinnedCache& c = pinned_cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  std::size_t bytes = 0;
  for (const auto& block : c.live) bytes += block.second;
  return bytes;
}

std::size_t resident_memory_bytes() noexcept {
  std::FILE* statm = std::fopen("/proc/self/statm", "r");
  if (statm == nullptr) return 0;
  unsigned long size = 0, resident = 0;
  const bool ok = std::fscanf(statm, "%lu %lu", &size, &resident) == 2;
  std::fclose(statm);
  return ok ? static_cast<std::size_t>(resident) * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

std::size_t peak_resident_memory_bytes() noexcept {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return 0;
  char line[256];
  unsigned long kib = 0;
  while (std::fgets(line, sizeof line, status) != nullptr)
    if (std::sscanf(line, "VmHWM: %lu kB", &kib) == 1) break;
  std::fclose(status);
  return static_cast<std::size_t>(kib) << 10;
}

} // namespace frost
