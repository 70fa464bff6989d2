#pragma once
/// @file frame_loader.hpp
/// @brief Frames made on demand instead of held in memory (`--low-memory`,
/// docs/movie_align.md#binning-and-memory): the streamed measurers and renderer of the stages call
/// it whenever they need a frame.
#include <functional>

namespace frost::motion {

/// Writes item `t` (0-based, of the loader's frames) into `out` (one frame of floats).
/// Called from several threads at once, also inside OpenMP regions: it must not throw.
using FrameLoader = std::function<void(int t, float* out)>;

} // namespace frost::motion
