// --device <id>: the movie on a GPU (frost::cuda::CudaMovie). Compiled only with FROST_USE_CUDA;
// gpu_movie_absent.cpp otherwise. MRC frames that need nothing but decoding and dark/gain go to
// the GPU as their stored bytes (decoded there); other frames are decoded on CPU threads. The
// device starts (prepare_gpu) while the movie is opened.
#include <cstdint>
#include <cstdio>
#include <future>
#include <optional>
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
    char line[512];
    std::snprintf(line, sizeof line,
                  "device: context %.1f ms, upload %.1f ms (staging %.1f), spectra %.1f ms, correlate %.1f ms, patches %.1f ms, "
                  "render %.1f ms (setup %.1f, batches %.1f: prefilter %.1f, warp %.1f, dose %.1f; finish %.1f), %zu maps, "
                  "peak memory %.0f MiB",
                  s.context_ms, s.upload_ms, s.upload_setup_ms, s.spectra_ms, s.correlate_ms, s.patches_ms, s.render_ms,
                  s.render_setup_ms, s.render_batches_ms, s.render_prefilter_ms, s.render_warp_ms, s.render_dose_ms, s.render_finish_ms,
                  s.correlations, s.peak_used_bytes / 1048576.0);
    return line;
  }

private:
  std::unique_ptr<cuda::CudaMovie> movie_;
};

} // namespace

std::future<void> prepare_gpu(int gpu) {
  return std::async(std::launch::async, [gpu] {
    try {
      cuda::CudaMovie::prepare_device(gpu);
    } catch (...) { // gpu_movie() meets the same problem and reports it
    }
  });
}

std::unique_ptr<LoadedMovie> gpu_movie(motion::MovieReader& reader, int gpu, double memory_fraction,
                                       bool read_whole_first, std::future<void> device_ready,
                                       const tuning::TuningOptions& tuning) {
  cuda::CudaMotionOptions o;
  o.device = gpu;
  o.memory_fraction = memory_fraction;
  o.tuning = tuning;
  const int first = static_cast<int>(reader.first_frame());
  const Shape shape = reader.frame_shape();
  const std::optional<motion::StoredFrames> stored = read_whole_first ? std::nullopt : reader.stored_frames();
  if (stored) {
    // Only decoding and dark/gain left: the file's bytes go to the GPU, which decodes them (mode
    // 0: a quarter of the float bytes). Reading them into host memory while the device starts
    // was measured slower (page faults on fresh memory): they are read into the pinned slots.
    if (device_ready.valid()) device_ready.get();
    cuda::StoredFrameSource source;
    source.name = reader.path();
    source.mode = stored->mode;
    source.swap = stored->swap;
    source.mode0_unsigned = stored->mode0_unsigned;
    source.frame_bytes = stored->frame_bytes;
    source.row_bytes = stored->row_bytes;
    source.read = [&reader](std::int64_t offset, std::size_t bytes, unsigned char* dst) {
      reader.read_stored(offset, bytes, dst);
    };
    source.dark = reader.dark().cview();
    source.gain = reader.gain().cview();
    return std::make_unique<GpuMovie>(std::make_unique<cuda::CudaMovie>(
        static_cast<int>(reader.frame_count()), motion::Size2{shape.x, shape.y}, first, source, o));
  }
  if (read_whole_first) { // hot-pixel detection needs the sum of all frames before any frame is final
    const Image<float> frames = reader.read_all();
    if (device_ready.valid()) device_ready.get();
    return std::make_unique<GpuMovie>(
        std::make_unique<cuda::CudaMovie>(motion::stack_frames(frames.cview(), "movie alignment"), first, o));
  }
  if (device_ready.valid()) device_ready.get();
  return std::make_unique<GpuMovie>(std::make_unique<cuda::CudaMovie>(
      static_cast<int>(reader.frame_count()), motion::Size2{shape.x, shape.y}, first,
      [&reader](int t, float* dst) { reader.read_frame(t, dst); }, o));
}

} // namespace frost::movie_align
