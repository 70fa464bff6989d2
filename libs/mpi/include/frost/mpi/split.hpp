#pragma once
/// @file split.hpp
/// @brief Dividing work between ranks and buffers into message-sized chunks. Pure arithmetic:
/// usable (and unit-tested) without MPI.
#include <algorithm>
#include <cstddef>
#include <string>

#include "frost/core/error.hpp"

namespace frost::mpi {

/// @brief A half-open index range [begin, end).
struct Range {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t size() const noexcept { return end - begin; }
  bool empty() const noexcept { return end == begin; }
};

/// @brief The contiguous share of `n_items` for `rank` out of `size` ranks.
///
/// Shares differ by at most one item (the first n_items % size ranks get one more), are in
/// rank order, cover [0, n_items) exactly and drop nothing; ranks beyond the item count get an
/// empty range. frost::Error(Runtime) unless size ≥ 1 and 0 ≤ rank < size.
inline Range split_range(std::size_t n_items, int rank, int size) {
  FROST_EXPECTS(size >= 1, "split_range: size must be at least 1, got " + std::to_string(size));
  FROST_EXPECTS(rank >= 0 && rank < size,
                "split_range: rank " + std::to_string(rank) + " outside [0, " + std::to_string(size) + ")");
  const std::size_t s = static_cast<std::size_t>(size);
  const std::size_t r = static_cast<std::size_t>(rank);
  const std::size_t base = n_items / s;
  const std::size_t extra = n_items % s;
  const std::size_t begin = r * base + std::min(r, extra);
  return Range{begin, begin + base + (r < extra ? 1 : 0)};
}

/// @brief Number of pieces when `count` elements are sent at most `max_chunk` at a time
/// (MPI counts are int: one call moves at most INT_MAX elements).
inline std::size_t chunk_count(std::size_t count, std::size_t max_chunk) {
  FROST_EXPECTS(max_chunk >= 1, "chunk_count: max_chunk must be at least 1");
  return count / max_chunk + (count % max_chunk != 0 ? 1 : 0);
}

/// @brief Piece `index` of chunk_count(count, max_chunk): every piece but the last is full.
inline Range chunk_range(std::size_t count, std::size_t max_chunk, std::size_t index) {
  FROST_EXPECTS(index < chunk_count(count, max_chunk), "chunk_range: index out of range");
  const std::size_t begin = index * max_chunk;
  return Range{begin, std::min(count, begin + max_chunk)};
}

} // namespace frost::mpi
