#pragma once
/// @file render_movie.hpp
/// @brief The render loop for a movie held in memory: for every frame of the sum range, shift
/// field from the model, warp, accumulate (docs/movie_align.md#warping-and-summing). Streaming
/// programs do the same loop themselves with FrameShift, warp_frame and FrameAccumulator.
#include "frost/core/image.hpp"
#include "frost/motion/frame_accumulator.hpp"
#include "frost/motion/frame_loader.hpp"
#include "frost/motion/interpolation_method.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// The frames to sum: absolute indices [first, first + count).
struct SumRange {
  int first = 0, count = 0;
};

/// @brief Warps and sums frames `range` of `frames` (a stack whose item i is absolute frame
/// stack_first + i) with `model` (aligned-frame index = absolute frame − model.first_frame).
/// @throw frost::Error(Usage) when the range is not inside both the stack and the model, or for
/// Fourier interpolation with a local model.
FrameSums render_movie(View<const float> frames, int stack_first, const MotionModel& model, SumRange range,
                       InterpolationMethod method, const SumOptions& options);

/// @brief The same for `count` frames of `nx` x `ny` made by `load` (item i = absolute frame
/// stack_first + i), each loaded once when the loop reaches it: the same result.
FrameSums render_movie(const FrameLoader& load, index_t nx, index_t ny, int count, int stack_first,
                       const MotionModel& model, SumRange range, InterpolationMethod method, const SumOptions& options);

} // namespace frost::motion
