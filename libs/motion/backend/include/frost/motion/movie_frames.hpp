#pragma once
/// @file movie_frames.hpp
/// @brief The frames of one movie where a backend holds them (host RAM, integer counts in RAM, or
/// a GPU), seen through the three stage interfaces, so that one pipeline runs on every backend
/// (docs/movie_align.md#the-backend-seam).
#include <string>

#include "frost/core/image.hpp"
#include "frost/motion/frame_renderer.hpp"
#include "frost/motion/pair_measurer.hpp"
#include "frost/motion/patch_measurer.hpp"

namespace frost::motion {

class MovieFrames {
public:
  virtual ~MovieFrames() = default;
  virtual PairMeasurer& pairs() = 0;
  virtual PatchMeasurer& patches() = 0;
  virtual FrameRenderer& renderer() = 0;
  /// "cpu", "cpu (--low-memory: 16-bit counts)" or "cuda:0 NVIDIA H100 ..." for the log.
  virtual std::string describe() const = 0;
  /// The device's stage times and memory as one log line ("" on the CPU).
  virtual std::string device_times() const { return {}; }
  /// @brief The frames as held, item i = frame i of the selection (tests: every way of loading
  /// gives the reader's frames bit for bit).
  virtual Image<float> copy_frames() const = 0;
};

} // namespace frost::motion
