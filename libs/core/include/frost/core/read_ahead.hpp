#pragma once
/// @file read_ahead.hpp
/// @brief Batches read one ahead of their use: batch k + 1 loads on another thread while the
/// caller works on batch k, so the reading overlaps the work and at most two batches are in memory
/// (docs/align_significant.md#streaming-the-images).
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <future>
#include <utility>

namespace frost {

/// @brief Calls use(batch, begin) for the items [0, count) in batches of `batch` (0: one batch of
/// all), in order, where batch = load(begin, n) ran on another thread while the previous batch was
/// in use. Returns the seconds `use` waited for loads. An exception from load() or use() leaves
/// the function after the pending load has finished (the future's destructor waits for it).
template <class Load, class Use>
double for_each_read_ahead(std::size_t count, std::size_t batch, Load&& load, Use&& use) {
  if (count == 0) return 0.0;
  const std::size_t step = batch > 0 ? std::min(batch, count) : count;
  using Batch = decltype(load(std::size_t{0}, std::size_t{0}));
  auto start = [&](std::size_t begin) {
    const std::size_t n = std::min(step, count - begin);
    return std::async(std::launch::async, [&load, begin, n] { return load(begin, n); });
  };
  std::future<Batch> next = start(0);
  double waited = 0.0;
  for (std::size_t begin = 0; begin < count; begin += step) {
    const auto t = std::chrono::steady_clock::now();
    Batch current = next.get();
    waited += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    if (begin + step < count) next = start(begin + step);
    use(current, begin);
  }
  return waited;
}

} // namespace frost
