// The CUDA backend of movie alignment (docs/movie_align.md#the-cuda-backend): defines
// motion::detail::make_cuda_motion_backend for make_motion_backend. A movie goes to the GPU as a
// CudaMovie: MRC frames that need nothing but decoding and dark/gain as their stored bytes
// (decoded there), other frames decoded on CPU threads. The device starts (context, FFT planner)
// on another thread when the backend is made, while the first movie is opened.
#include <cstdint>
#include <cstdio>
#include <future>
#include <optional>
#include <utility>

#include "frost/cuda/motion.hpp"
#include "frost/motion/motion_backend.hpp"

namespace frost::cuda {

namespace {

class CudaFrames final : public motion::MovieFrames {
public:
  explicit CudaFrames(std::unique_ptr<CudaMovie> movie) : movie_(std::move(movie)) {}
  motion::PairMeasurer& pairs() override { return *movie_; }
  motion::PatchMeasurer& patches() override { return *movie_; }
  motion::FrameRenderer& renderer() override { return *movie_; }
  std::string describe() const override { return movie_->describe(); }
  std::string device_times() const override {
    const CudaMotionStats& s = movie_->stats();
    char line[512];
    std::snprintf(line, sizeof line,
                  "device: context %.1f ms, upload %.1f ms (staging %.1f, reads %.1f, device decode %.1f), spectra %.1f ms, "
                  "correlate %.1f ms, patches %.1f ms, "
                  "render %.1f ms (setup %.1f, batches %.1f: prefilter %.1f, warp %.1f, dose %.1f; finish %.1f), %zu maps, "
                  "peak memory %.0f MiB",
                  s.context_ms, s.upload_ms, s.upload_setup_ms, s.upload_read_ms, s.upload_decode_ms, s.spectra_ms, s.correlate_ms, s.patches_ms, s.render_ms,
                  s.render_setup_ms, s.render_batches_ms, s.render_prefilter_ms, s.render_warp_ms, s.render_dose_ms, s.render_finish_ms,
                  s.correlations, s.peak_used_bytes / 1048576.0);
    return line;
  }
  Image<float> copy_frames() const override { return movie_->download_frames(); }

private:
  std::unique_ptr<CudaMovie> movie_;
};

class CudaMotionBackend final : public motion::MotionBackend {
public:
  CudaMotionBackend(int gpu, const motion::MotionBackendOptions& options) : gpu_(gpu) {
    options_.device = gpu;
    options_.memory_fraction = options.gpu_memory_fraction;
    options_.tuning = options.tuning;
    options_.upload_group = options.batches.upload_group;
    options_.frame_batch = options.batches.frame_batch;
    options_.pair_batch = options.batches.pair_batch;
    options_.patch_batch = options.batches.patch_batch;
    ready_ = std::async(std::launch::async, [gpu] {
               try {
                 CudaMovie::prepare_device(gpu);
               } catch (...) { // load() meets the same problem and reports it
               }
             }).share();
  }

  std::unique_ptr<motion::MovieFrames> load(motion::MovieReader& reader) override {
    const int first = static_cast<int>(reader.first_frame());
    const Shape shape = reader.frame_shape();
    // Hot-pixel detection needs the sum of all frames before any frame is final.
    const bool read_whole_first = reader.detects_hot_pixels();
    const std::optional<motion::StoredFrames> stored = read_whole_first ? std::nullopt : reader.stored_frames();
    if (stored) {
      // Only decoding and dark/gain left: the stored samples go to the GPU, which converts them
      // (8-bit: a quarter of the float bytes); TIFF strips are decompressed by all reader threads. Reading them into host memory while the device starts
      // was measured slower (page faults on fresh memory): they are read into the pinned slots.
      wait_for_device();
      StoredFrameSource source;
      source.name = reader.path();
      source.mode = stored->mode;
      source.swap = stored->swap;
      source.mode0_unsigned = stored->mode0_unsigned;
      source.frame_bytes = stored->frame_bytes;
      source.row_bytes = stored->row_bytes;
      source.decode_rows = stored->decode_rows;
      source.read = [&reader](std::int64_t offset, std::size_t bytes, unsigned char* dst) {
        reader.read_stored(offset, bytes, dst);
      };
      source.dark = reader.dark().cview();
      source.gain = reader.gain().cview();
      return std::make_unique<CudaFrames>(std::make_unique<CudaMovie>(
          static_cast<int>(reader.frame_count()), motion::Size2{shape.x, shape.y}, first, source, options_));
    }
    const std::optional<motion::EerRawFrames> eer = read_whole_first ? std::nullopt : reader.eer_raw_frames();
    if (eer) {
      // EER: the compressed raw frames go to the device, which renders the fractions.
      wait_for_device();
      EerFrameSource source;
      source.name = reader.path();
      source.first_raw = eer->first_raw;
      source.group = eer->group;
      source.sensor_width = eer->sensor_width;
      source.sensor_height = eer->sensor_height;
      source.upsampling = eer->upsampling;
      source.codes = eer->codes;
      const io::EerReader* file = eer->reader;
      source.raw_bytes = [file](index_t raw) { return file->raw_frame_bytes(raw); };
      source.read_raw = [file](index_t raw, unsigned char* dst) { file->read_raw_frame(raw, dst); };
      source.corrupt = [file](index_t raw) { file->note_corrupt_frame(raw); };
      source.dark = reader.dark().cview();
      source.gain = reader.gain().cview();
      return std::make_unique<CudaFrames>(std::make_unique<CudaMovie>(
          static_cast<int>(reader.frame_count()), motion::Size2{shape.x, shape.y}, first, source, options_));
    }
    if (read_whole_first) {
      const Image<float> frames = reader.read_all();
      wait_for_device();
      return std::make_unique<CudaFrames>(
          std::make_unique<CudaMovie>(motion::stack_frames(frames.cview(), "movie alignment"), first, options_));
    }
    wait_for_device();
    return std::make_unique<CudaFrames>(std::make_unique<CudaMovie>(
        static_cast<int>(reader.frame_count()), motion::Size2{shape.x, shape.y}, first,
        [&reader](int t, float* dst) { reader.read_frame(t, dst); }, options_));
  }

  std::unique_ptr<motion::MovieFrames> load(Image<float> frames, int first_frame) override {
    wait_for_device();
    return std::make_unique<CudaFrames>(
        std::make_unique<CudaMovie>(motion::stack_frames(frames.cview(), "movie alignment"), first_frame, options_));
  }

  std::string name() const override { return "cuda:" + std::to_string(gpu_); }
  bool loads_ahead() const override { return true; }

private:
  void wait_for_device() const {
    const std::shared_future<void> ready = ready_; // a copy per caller: loads may run on several threads
    ready.get();
  }

  int gpu_;
  CudaMotionOptions options_;
  std::shared_future<void> ready_;
};

} // namespace
} // namespace frost::cuda

namespace frost::motion::detail {

std::unique_ptr<MotionBackend> make_cuda_motion_backend(int gpu, const MotionBackendOptions& options) {
  return std::make_unique<cuda::CudaMotionBackend>(gpu, options);
}

} // namespace frost::motion::detail
