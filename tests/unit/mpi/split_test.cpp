// Work splitting between ranks and chunking of large buffers: pure arithmetic, no MPI.
#include <climits>

#include "frost/mpi/split.hpp"
#include "frost/test/support.hpp"

namespace frost::mpi {
namespace {

/// Shares of all ranks are contiguous, in rank order, cover [0, n) and differ by at most one.
void expect_balanced_cover(std::size_t n, int size) {
  std::size_t next = 0, smallest = n, largest = 0;
  for (int r = 0; r < size; ++r) {
    const Range share = split_range(n, r, size);
    ASSERT_EQ(share.begin, next) << "n=" << n << " size=" << size << " rank=" << r;
    ASSERT_LE(share.begin, share.end);
    next = share.end;
    smallest = std::min(smallest, share.size());
    largest = std::max(largest, share.size());
  }
  EXPECT_EQ(next, n) << "n=" << n << " size=" << size;
  EXPECT_LE(largest - smallest, 1u) << "n=" << n << " size=" << size;
}

TEST(MpiSplitRange, CoversEverythingWithBalancedContiguousShares) {
  for (std::size_t n : {0u, 1u, 2u, 7u, 10u, 999u, 1000u, 1001u, 65537u})
    for (int size : {1, 2, 3, 4, 7, 16, 1000, 2000}) expect_balanced_cover(n, size);
}

TEST(MpiSplitRange, ExactValues) {
  // 10 items on 4 ranks: 3 3 2 2.
  EXPECT_EQ(split_range(10, 0, 4).begin, 0u);
  EXPECT_EQ(split_range(10, 0, 4).end, 3u);
  EXPECT_EQ(split_range(10, 1, 4).end, 6u);
  EXPECT_EQ(split_range(10, 2, 4).end, 8u);
  EXPECT_EQ(split_range(10, 3, 4).begin, 8u);
  EXPECT_EQ(split_range(10, 3, 4).end, 10u);
  // More ranks than items: the last ranks get nothing.
  EXPECT_TRUE(split_range(2, 5, 8).empty());
  EXPECT_EQ(split_range(2, 1, 8).size(), 1u);
  EXPECT_EQ(split_range(5, 0, 1).size(), 5u);
}

TEST(MpiSplitRange, HugeCountsDoNotOverflow) {
  const std::size_t n = std::size_t{1} << 62;
  expect_balanced_cover(n, 3);
  expect_balanced_cover(n + 5, 7);
  const std::size_t max = ~std::size_t{0};
  expect_balanced_cover(max, 2);
  EXPECT_EQ(split_range(max, 1, 2).end, max);
}

TEST(MpiSplitRange, RejectsBadRankOrSize) {
  EXPECT_THROW(split_range(10, 0, 0), Error);
  EXPECT_THROW(split_range(10, -1, 4), Error);
  EXPECT_THROW(split_range(10, 4, 4), Error);
}

TEST(MpiChunks, PiecesOfAtMostMaxChunk) {
  EXPECT_EQ(chunk_count(0, 7), 0u);
  EXPECT_EQ(chunk_count(7, 7), 1u);
  EXPECT_EQ(chunk_count(8, 7), 2u);
  EXPECT_EQ(chunk_range(20, 7, 2).begin, 14u);
  EXPECT_EQ(chunk_range(20, 7, 2).end, 20u);
  EXPECT_THROW(chunk_range(20, 7, 3), Error);
  EXPECT_THROW(chunk_count(5, 0), Error);
  // A buffer above INT_MAX elements becomes several calls that each fit an int count.
  const std::size_t count = std::size_t{5} * INT_MAX + 3;
  const std::size_t step = INT_MAX;
  const std::size_t pieces = chunk_count(count, step);
  EXPECT_EQ(pieces, 6u);
  std::size_t covered = 0;
  for (std::size_t i = 0; i < pieces; ++i) {
    const Range r = chunk_range(count, step, i);
    EXPECT_EQ(r.begin, covered);
    EXPECT_LE(r.size(), static_cast<std::size_t>(INT_MAX));
    covered = r.end;
  }
  EXPECT_EQ(covered, count);
}

} // namespace
} // namespace frost::mpi
