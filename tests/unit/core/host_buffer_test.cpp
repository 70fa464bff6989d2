// Host buffers: alignment, moves, and the pinned fallback when no GPU is present.
#include <cstdint>

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
  HostBuffer<double> p(1 << 16, HostMemory::Pinned);
  p.zero();
  p[12345] = 1.5;
  EXPECT_EQ(p[12345], 1.5);
  if (!test::gpu_unavailable_reason().empty()) {
    EXPECT_EQ(p.memory(), HostMemory::Pageable);
  }
}

} // namespace
} // namespace frost
