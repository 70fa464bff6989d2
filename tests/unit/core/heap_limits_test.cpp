// The malloc limits (docs/conventions.md#host-memory). glibc fixes its arena limit once per process
// and adapts its thresholds to what was freed, so each case runs a probe in a fresh copy of this
// test program and reads what it prints.
#include <gtest/gtest.h>

#include <limits.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "frost/core/heap_limits.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/test/sanitizers.hpp"

namespace frost {
namespace {

constexpr const char* kProbe = "FROST_HEAP_PROBE";

#ifdef __GLIBC__
/// The arenas glibc holds after `threads` threads allocated while all alive.
int arenas_after_threads_allocate(int threads) {
  std::atomic<int> arrived{0};
  std::vector<std::thread> team;
  for (int t = 0; t < threads; ++t)
    team.emplace_back([&] {
      void* p = std::malloc(64 << 10);
      static_cast<volatile char*>(p)[0] = 1;
      arrived.fetch_add(1);
      while (arrived.load() < threads) std::this_thread::yield(); // all hold their block at once
      std::free(p);
    });
  for (auto& t : team) t.join();
  char* text = nullptr;
  std::size_t size = 0;
  std::FILE* out = ::open_memstream(&text, &size);
  ::malloc_info(0, out);
  std::fclose(out);
  int heaps = 0;
  for (const char* at = text; (at = std::strstr(at, "<heap nr=")) != nullptr; ++at) ++heaps;
  std::free(text);
  return heaps;
}

/// Resident MiB a thread's arena keeps after it took and freed a 24 MiB block twice (the first
/// free raises glibc's adaptive thresholds).
long mib_kept_after_a_thread_frees() {
  long kept = 0;
  std::thread([&] {
    const std::size_t before = resident_memory_bytes();
    for (int round = 0; round < 2; ++round) {
      auto* p = static_cast<char*>(std::malloc(std::size_t{24} << 20));
      std::memset(p, 1, std::size_t{24} << 20);
      asm volatile("" : : "r"(p) : "memory"); // the block is used: the compiler keeps the pair
      std::free(p);
    }
    kept = static_cast<long>(resident_memory_bytes() >> 20) - static_cast<long>(before >> 20);
  }).join();
  return kept;
}

/// Runs the probe in a fresh process with `environment` (shell assignments) and returns what it
/// printed after `key`.
int probe(const std::string& environment, const char* key) {
  char self[PATH_MAX] = {};
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return -1;
  const std::string command = "env -u MALLOC_ARENA_MAX -u MALLOC_TRIM_THRESHOLD_ -u MALLOC_MMAP_THRESHOLD_ -u GLIBC_TUNABLES " +
                              environment + " '" + std::string(self, n) +
                              "' --gtest_also_run_disabled_tests --gtest_filter=HeapLimitsProbe.DISABLED_Report 2>&1";
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  int value = -1;
  const std::string format = std::string(key) + " %d";
  char line[512];
  while (std::fgets(line, sizeof line, pipe) != nullptr) std::sscanf(line, format.c_str(), &value);
  ::pclose(pipe);
  return value;
}
#endif

// Not a case of its own (hence disabled): the probe the cases below run in a fresh process.
TEST(HeapLimitsProbe, DISABLED_Report) {
  const char* mode = std::getenv(kProbe);
  if (mode == nullptr) GTEST_SKIP() << "runs only as the probe of the HeapLimits cases";
#ifdef __GLIBC__
  if (std::strcmp(mode, "limited") == 0) set_heap_limits();
  std::printf("kept %ld\n", mib_kept_after_a_thread_frees());
  std::printf("arenas %d\n", arenas_after_threads_allocate(2 * heap_arena_limit() + 2));
#endif
}

class HeapLimits : public ::testing::Test {
protected:
  void SetUp() override {
#ifndef __GLIBC__
    GTEST_SKIP() << "the limits are glibc's";
#endif
#ifdef FROST_TEST_SANITIZER_ALLOCATOR
    GTEST_SKIP() << "a sanitizer's allocator replaces glibc's";
#endif
  }
};

#ifdef __GLIBC__
TEST_F(HeapLimits, WithoutThemThreadsGetArenasOfTheirOwnAndKeepWhatTheyFree) {
  const std::string env = std::string(kProbe) + "=glibc";
  EXPECT_GT(probe(env, "arenas"), heap_arena_limit());
  EXPECT_GE(probe(env, "kept"), 16) << "glibc's adaptive trim threshold keeps the 24 MiB block";
}

TEST_F(HeapLimits, AFrostProcessKeepsToTheArenaCap) {
  const int arenas = probe(std::string(kProbe) + "=limited", "arenas");
  EXPECT_GE(arenas, 1);
  EXPECT_LE(arenas, heap_arena_limit());
}

TEST_F(HeapLimits, AFrostProcessGivesBackWhatAThreadFreed) {
  const int kept = probe(std::string(kProbe) + "=limited", "kept");
  EXPECT_GE(kept, 0);
  EXPECT_LT(kept, 8);
}

TEST_F(HeapLimits, TheUsersSettingsStand) {
  EXPECT_EQ(probe(std::string(kProbe) + "=limited MALLOC_ARENA_MAX=3", "arenas"), 3);
  EXPECT_GE(probe(std::string(kProbe) + "=limited GLIBC_TUNABLES=glibc.malloc.trim_threshold=67108864", "kept"), 16);
}
#endif

} // namespace
} // namespace frost
