#include "frost/motion/render_movie.hpp"

#include <string>

#include "frost/core/error.hpp"
#include "frost/motion/frame_renderer.hpp"
#include "frost/motion/frame_shift.hpp"
#include "frost/motion/warp_frame.hpp"

namespace frost::motion {

void check_render_request(int stack_first, int stack_count, const MotionModel& model, SumRange range,
                          InterpolationMethod method) {
  const int stack_last = stack_first + stack_count - 1;
  const int model_last = model.first_frame + static_cast<int>(model.global.size()) - 1;
  const int last = range.first + range.count - 1;
  if (range.count < 1 || range.first < stack_first || last > stack_last || range.first < model.first_frame ||
      last > model_last)
    throw_usage_error("frames to sum " + std::to_string(range.first) + ".." + std::to_string(last) +
                      " must lie inside the loaded frames " + std::to_string(stack_first) + ".." +
                      std::to_string(stack_last) + " and the aligned frames " + std::to_string(model.first_frame) +
                      ".." + std::to_string(model_last));
  if (method == InterpolationMethod::Fourier && model.local)
    throw_usage_error("--interp fourier applies one shift per frame; it needs a global-only motion model");
}

namespace {

/// The render loop; frame_at(i) gives item i.
template <class FrameAt>
FrameSums render_items(FrameAt frame_at, index_t nx, index_t ny, int count, int stack_first, const MotionModel& model,
                       SumRange range, InterpolationMethod method, const SumOptions& options) {
  check_render_request(stack_first, count, model, range, method);
  const int last = range.first + range.count - 1;
  FrameAccumulator sums(nx, ny, range.first, range.count, options);
  Image<float> aligned(Shape::image(nx, ny));
  for (int frame = range.first; frame <= last; ++frame) {
    const View<const float> raw = frame_at(frame - stack_first);
    const FrameShift shift = FrameShift::from_model(model, frame - model.first_frame, nx);
    warp_frame(raw, shift, method, aligned.view());
    sums.add_aligned(frame, aligned.cview());
    sums.add_unaligned(frame, raw);
  }
  return sums.finish();
}

} // namespace

FrameSums render_movie(View<const float> frames, int stack_first, const MotionModel& model, SumRange range,
                       InterpolationMethod method, const SumOptions& options) {
  FROST_EXPECTS(frames.shape.z == 1, "render_movie: expects a stack of 2-D frames, got " + to_string(frames.shape));
  return render_items([&](int i) { return frames.item(i); }, frames.shape.x, frames.shape.y,
                      static_cast<int>(frames.shape.n), stack_first, model, range, method, options);
}

FrameSums render_movie(const FrameLoader& load, index_t nx, index_t ny, int count, int stack_first,
                       const MotionModel& model, SumRange range, InterpolationMethod method, const SumOptions& options) {
  Image<float> frame(Shape::image(nx, ny));
  return render_items(
      [&](int i) {
        load(i, frame.data());
        return frame.cview();
      },
      nx, ny, count, stack_first, model, range, method, options);
}

} // namespace frost::motion
