// make_motion_backend: the one place that chooses where movies are held (one binary serves both):
// the CPU backend here, the CUDA one from cuda/motion (or motion_backend_unavailable.cpp).
#include <memory>
#include <utility>

#include "frost/motion/motion_backend.hpp"
#include "host_frames.hpp"

namespace frost::motion {

namespace {

/// Frames in host RAM, or as integer counts with --low-memory.
class CpuMotionBackend final : public MotionBackend {
public:
  explicit CpuMotionBackend(const MotionBackendOptions& options) : low_memory_(options.low_memory) {}
  std::unique_ptr<MovieFrames> load(MovieReader& reader) override {
    const int first = static_cast<int>(reader.first_frame());
    std::unique_ptr<MovieFrames> frames;
    if (low_memory_) frames = detail::low_memory_frames(reader, first);
    if (!frames) frames = detail::host_frames(reader.read_all(), first);
    return frames;
  }
  std::unique_ptr<MovieFrames> load(Image<float> frames, int first_frame) override {
    return detail::host_frames(std::move(frames), first_frame);
  }
  std::string name() const override { return "cpu"; }

private:
  bool low_memory_;
};

} // namespace

std::unique_ptr<MotionBackend> make_motion_backend(int gpu, const MotionBackendOptions& options) {
  if (gpu < 0) return std::make_unique<CpuMotionBackend>(options);
  return detail::make_cuda_motion_backend(gpu, options);
}

} // namespace frost::motion
