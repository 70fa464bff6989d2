#pragma once
/// @file eer_movie.hpp
/// @brief A count movie as EER raw frames (docs/simulate.md#eer-movies): the EER file whose
/// fractions of G raw frames, rendered at the sensor grid, are the movie's frames exactly.
#include <cstdint>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/io/eer_decode.hpp"

namespace frost::sim {

/// How the counts are split.
struct EerSplit {
  index_t group = 25;        ///< raw frames per fraction (frame of the movie), G
  io::EerEncoding encoding;  ///< the stream coding (default: 7-bit runs, 4-bit symbols, 65001)
  std::uint32_t seed = 1;
};

/// @brief The G raw frames of every frame of `counts` (W x H x F non-negative integer counts), as
/// encoded streams in raw-frame order (F * G of them). Each count of a pixel goes to a different
/// raw frame of its fraction (an EER frame holds at most one electron per pixel), chosen at
/// random, with a random sub-pixel position. Deterministic for a seed and independent of the
/// thread count. @throw frost::Error(Usage) when a count is not a non-negative integer or
/// exceeds G (a larger G is needed).
std::vector<std::vector<unsigned char>> split_into_eer_frames(const Image<float>& counts, const EerSplit& split);

} // namespace frost::sim
