// --device <id>: the movie on a GPU (frost::cuda::CudaMovie). Compiled only with FROST_USE_CUDA;
// gpu_movie_absent.cpp otherwise.
#include <cstdio>
#include <utility>

#include "frost/cuda/motion.hpp"
#include "loaded_movie.hpp"

namespace frost::movie_align {

namespace {

class GpuMovie final : public LoadedMovie {
public:
  explicit GpuMovie(std::unique_ptr<cuda::CudaMovie> movie) : movie_(std::move(movie)) {}
  motion::PairMeasurer& pairs() override { return *movie_; }
  motion::PatchMeasurer& patches() override { return *movie_; }
  motion::FrameRenderer& renderer() override { return *movie_; }
  std::string describe() const override { return movie_->describe(); }
  std::string device_times() const override {
    const cuda::CudaMotionStats& s = movie_->stats();
    char line[256];
    std::snprintf(line, sizeof line,
                  "device: upload %.1f ms, spectra %.1f ms, correlate %.1f ms, patches %.1f ms, render %.1f ms, "
                  "%zu maps, peak memory %.0f MiB",
                  s.upload_ms, s.spectra_ms, s.correlate_ms, s.patches_ms, s.render_ms, s.correlations,
                  s.peak_used_bytes / 1048576.0);
    return line;
  }

private:
  std::unique_ptr<cuda::CudaMovie> movie_;
};

} // namespace

std::unique_ptr<LoadedMovie> gpu_movie(motion::MovieReader& reader, int gpu, double memory_fraction,
                                       bool read_whole_first) {
  cuda::CudaMotionOptions o;
  o.device = gpu;
  o.memory_fraction = memory_fraction;
  const int first = static_cast<int>(reader.first_frame());
  if (read_whole_first) { // hot-pixel detection needs the sum of all frames before any frame is final
    const Image<float> frames = reader.read_all();
    return std::make_unique<GpuMovie>(
        std::make_unique<cuda::CudaMovie>(motion::stack_frames(frames.cview(), "movie alignment"), first, o));
  }
  const Shape shape = reader.frame_shape();
  return std::make_unique<GpuMovie>(std::make_unique<cuda::CudaMovie>(
      static_cast<int>(reader.frame_count()), motion::Size2{shape.x, shape.y}, first,
      [&reader](int t, float* dst) { reader.read_frame(t, dst); }, o));
}

} // namespace frost::movie_align
