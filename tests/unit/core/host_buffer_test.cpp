// Host buffers: alignment, moves, and the pinned fallback when no GPU is present.
#include <cstdint>
#include <cstring>

#include "frost/core/host_buffer.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

TEST(HostBuffer, AlignedAndMoveOnly) {
  HostBuffer<float> a(1001);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % 64, 0u);
  a.zero();
  a[1000] = 3.f;
  HostBuffer<float> b(std::move(a));
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(b.size(), 1001u);
  EXPECT_EQ(b[1000], 3.f);
}

TEST(HostBuffer, PinnedRequestAlwaysGivesUsableMemory) {
  {
    HostBuffer<double> p(1 << 16, HostMemory::Pinned);
    p.zero();
    p[12345] = 1.5;
    EXPECT_EQ(p[12345], 1.5);
    if (!test::gpu_unavailable_reason().empty()) {
      EXPECT_EQ(p.memory(), HostMemory::Pageable);
    }
  }
  // Without a usable GPU (or without CUDA in the build) nothing is page-locked, so nothing is kept.
  if (!test::gpu_unavailable_reason().empty()) {
    EXPECT_EQ(pinned_cache_free_bytes(), 0u);
  }
}

// Prefaulting writes one zero byte per page (the first byte, and each page start after it) and
// leaves every other byte as it was, on a buffer that starts inside a page.
TEST(HostBuffer, PrefaultTouchesOneByteAPage) {
  HostBuffer<unsigned char> buf((5 << 20) + 123);
  std::memset(buf.data(), 0xAB, buf.size());
  unsigned char* p = buf.data() + 100; // not a page start
  const std::size_t n = buf.size() - 100;
  host_prefault(p, n);
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] == 0) {
      ++zeros;
      ASSERT_TRUE(i == 0 || reinterpret_cast<std::uintptr_t>(p + i) % 4096 == 0) << i;
    } else {
      ASSERT_EQ(p[i], 0xAB) << i;
    }
  }
  EXPECT_GE(zeros, n / 65536); // at least one a 64 KiB page
  EXPECT_EQ(buf.data()[99], 0xAB);
}

} // namespace
} // namespace frost

namespace frost {
namespace {

// The session's memory note reads the resident size: it sees 64 MiB written.
TEST(ResidentMemory, SeesPagesWritten) {
  const std::size_t before = resident_memory_bytes();
  ASSERT_GT(before, std::size_t{1} << 20);
  HostBuffer<unsigned char> big(std::size_t{64} << 20);
  std::memset(big.data(), 1, big.size());
  EXPECT_GE(resident_memory_bytes(), before + (std::size_t{48} << 20));
}

} // namespace
} // namespace frost
