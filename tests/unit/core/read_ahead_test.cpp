// for_each_read_ahead (frost/core/read_ahead.hpp): every item once, in order, in batches of the
// asked size; the next batch is loading while the current one is in use; errors of a load or of
// the use come out of the call.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "frost/core/read_ahead.hpp"

namespace frost {
namespace {

TEST(ReadAhead, EveryItemOnceInOrder) {
  for (std::size_t batch : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(10), std::size_t(50)}) {
    std::vector<std::pair<std::size_t, std::size_t>> loads;
    std::vector<std::size_t> used;
    for_each_read_ahead(
        10, batch,
        [&](std::size_t begin, std::size_t n) {
          loads.emplace_back(begin, n);
          std::vector<std::size_t> items;
          for (std::size_t i = 0; i < n; ++i) items.push_back(begin + i);
          return items;
        },
        [&](const std::vector<std::size_t>& items, std::size_t begin) {
          EXPECT_EQ(items.front(), begin);
          used.insert(used.end(), items.begin(), items.end());
        });
    std::vector<std::size_t> all(10);
    for (std::size_t i = 0; i < 10; ++i) all[i] = i;
    EXPECT_EQ(used, all) << "batch " << batch;
    const std::size_t step = batch == 0 || batch > 10 ? 10 : batch;
    ASSERT_EQ(loads.size(), (10 + step - 1) / step) << "batch " << batch;
    for (std::size_t k = 0; k < loads.size(); ++k) {
      EXPECT_EQ(loads[k].first, k * step);
      EXPECT_EQ(loads[k].second, std::min(step, 10 - k * step));
    }
  }
  int calls = 0;
  EXPECT_EQ(for_each_read_ahead(0, 4, [&](std::size_t, std::size_t) { return ++calls; }, [&](int, std::size_t) { ++calls; }),
            0.0);
  EXPECT_EQ(calls, 0) << "no items, no calls";
}

// While batch 0 is in use, batch 1 has started loading: use(0) waits until load(1) has begun.
TEST(ReadAhead, TheNextBatchLoadsDuringTheUse) {
  std::atomic<bool> second_started{false};
  bool overlapped = false;
  for_each_read_ahead(
      2, 1,
      [&](std::size_t begin, std::size_t) {
        if (begin == 1) second_started = true;
        return begin;
      },
      [&](std::size_t begin, std::size_t) {
        if (begin != 0) return;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!second_started && std::chrono::steady_clock::now() < until) std::this_thread::yield();
        overlapped = second_started;
      });
  EXPECT_TRUE(overlapped) << "batch 1 did not load while batch 0 was in use";
}

TEST(ReadAhead, ErrorsOfLoadAndUseComeOut) {
  EXPECT_THROW(for_each_read_ahead(
                   4, 1,
                   [](std::size_t begin, std::size_t) {
                     if (begin == 2) throw std::runtime_error("bad batch");
                     return begin;
                   },
                   [](std::size_t, std::size_t) {}),
               std::runtime_error);
  std::atomic<int> loads{0};
  EXPECT_THROW(for_each_read_ahead(
                   4, 1,
                   [&](std::size_t begin, std::size_t) {
                     ++loads;
                     return begin;
                   },
                   [](std::size_t begin, std::size_t) {
                     if (begin == 1) throw std::runtime_error("bad use");
                   }),
               std::runtime_error);
  EXPECT_EQ(loads.load(), 3) << "the pending load of batch 2 finished before the error left the call";
}

} // namespace
} // namespace frost
