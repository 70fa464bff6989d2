#pragma once
// The CPU backend's two ways of holding a movie (docs/movie_align.md#the-cpu-backend and
// #low-memory-mode).
#include <memory>

#include "frost/core/image.hpp"
#include "frost/motion/movie_frames.hpp"
#include "frost/motion/movie_reader.hpp"

namespace frost::motion::detail {

/// Frames in host memory (item i = absolute frame `first` + i); takes ownership of `frames`.
std::unique_ptr<MovieFrames> host_frames(Image<float> frames, int first);

/// @brief --low-memory: the selected frames of `reader` (which must outlive the result) kept as
/// integer counts and corrected whenever a stage reads them, with the results of
/// host_frames(reader.read_all(), first) bit for bit; logs the memory saved. nullptr (after a
/// note) when the movie is not stored as integers of at most 16 bits or the counts would not be
/// smaller than the binned float frames: use host_frames().
std::unique_ptr<MovieFrames> low_memory_frames(MovieReader& reader, int first);

} // namespace frost::motion::detail
