#pragma once
/// @file frame_renderer.hpp
/// @brief Where the render loop of docs/movie_align.md#warping-and-summing runs: the frames of one
/// movie and what render_movie() computes from them. The host implementation is render_movie() on
/// frames in RAM; the CUDA one (cuda/motion) warps, sums and dose-weights frames resident on a GPU
/// with the per-pixel rules of warp_math.hpp.
#include <utility>

#include "frost/core/image.hpp"
#include "frost/motion/frame_accumulator.hpp"
#include "frost/motion/interpolation_method.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/motion/render_movie.hpp"

namespace frost::motion {

class FrameRenderer {
public:
  virtual ~FrameRenderer() = default;
  /// @brief render_movie() of this renderer's frames: `range` in absolute frame indices, the
  /// frames' item i being absolute frame first_frame() + i. Same errors as render_movie().
  virtual FrameSums render(const MotionModel& model, SumRange range, InterpolationMethod method,
                           const SumOptions& options) = 0;
};

/// @brief A stack in host memory (item i = absolute frame `stack_first` + i); holds a view.
class HostFrameRenderer final : public FrameRenderer {
public:
  HostFrameRenderer(View<const float> frames, int stack_first) : frames_(frames), first_(stack_first) {}
  FrameSums render(const MotionModel& model, SumRange range, InterpolationMethod method,
                   const SumOptions& options) override {
    return render_movie(frames_, first_, model, range, method, options);
  }

private:
  View<const float> frames_;
  int first_;
};

/// @brief Frames made on demand by a FrameLoader (--low-memory): render_movie() loading each
/// summed frame once.
class StreamedFrameRenderer final : public FrameRenderer {
public:
  StreamedFrameRenderer(FrameLoader load, index_t nx, index_t ny, int count, int stack_first)
      : load_(std::move(load)), nx_(nx), ny_(ny), count_(count), first_(stack_first) {}
  FrameSums render(const MotionModel& model, SumRange range, InterpolationMethod method,
                   const SumOptions& options) override {
    return render_movie(load_, nx_, ny_, count_, first_, model, range, method, options);
  }

private:
  FrameLoader load_;
  index_t nx_, ny_;
  int count_, first_;
};

/// @brief The checks render_movie() makes before any work, for other renderers: `range` inside
/// the stack [stack_first, stack_first + stack_count) and the model's frames; Fourier only with a
/// global-only model. @throw frost::Error(Usage) naming the ranges.
void check_render_request(int stack_first, int stack_count, const MotionModel& model, SumRange range,
                          InterpolationMethod method);

} // namespace frost::motion
