// --low-memory on the CPU (docs/movie_align.md#binning-and-memory): the frames stay integer counts and every
// stage corrects a frame when it reads it (CountFrames, the streamed measurers and renderer).
#include <cstdio>
#include <memory>
#include <string>

#include "frost/core/log.hpp"
#include "frost/motion/count_frames.hpp"
#include "loaded_movie.hpp"

namespace frost::movie_align {

namespace {

std::string mib(double bytes) {
  char s[32];
  std::snprintf(s, sizeof s, "%.1f MiB", bytes / (1024.0 * 1024.0));
  return s;
}

class LowMemoryMovie final : public LoadedMovie {
public:
  LowMemoryMovie(std::unique_ptr<motion::CountFrames> counts, int first)
      : counts_(std::move(counts)), pairs_(loader(), count(), size()),
        patches_(loader(), count(), size(), counts_->bytes()),
        renderer_(loader(), size().x, size().y, count(), first) {}
  motion::PairMeasurer& pairs() override { return pairs_; }
  motion::PatchMeasurer& patches() override { return patches_; }
  motion::FrameRenderer& renderer() override { return renderer_; }
  std::string describe() const override { return "cpu (--low-memory: " + std::to_string(counts_->bits()) + "-bit counts)"; }

private:
  motion::FrameLoader loader() const {
    const motion::CountFrames* c = counts_.get();
    return [c](int t, float* out) { c->frame(t, out); };
  }
  int count() const { return static_cast<int>(counts_->frame_count()); }
  motion::Size2 size() const { return {counts_->frame_shape().x, counts_->frame_shape().y}; }

  std::unique_ptr<motion::CountFrames> counts_;
  motion::StreamedPairMeasurer pairs_;
  motion::StreamedPatchMeasurer patches_;
  motion::StreamedFrameRenderer renderer_;
};

} // namespace

std::unique_ptr<LoadedMovie> low_memory_movie(motion::MovieReader& reader, int first) {
  const int bits = motion::CountFrames::bits_for(reader);
  const double frames = static_cast<double>(reader.frame_count());
  const double as_float = frames * static_cast<double>(reader.frame_shape().total()) * 4.0;
  const double as_counts = frames * static_cast<double>(reader.raw_width() * reader.raw_height()) * bits / 8.0;
  if (bits == 0) {
    log_info("--low-memory: " + reader.path() + " is not stored as integer counts; frames are held as float32");
    return nullptr;
  }
  if (as_counts >= as_float) {
    log_info("--low-memory: " + std::to_string(bits) + "-bit counts at the raw size (" + mib(as_counts) +
             ") would take no less than the binned float32 frames (" + mib(as_float) + "); holding those");
    return nullptr;
  }
  std::unique_ptr<motion::CountFrames> counts = motion::CountFrames::read(reader);
  log_info("--low-memory: frames held as " + std::to_string(bits) + "-bit counts, " + mib(as_counts) + " instead of " +
           mib(as_float) + " as float32 (" + mib(as_float - as_counts) +
           " saved); dark, gain, bad pixels and binning are applied whenever a stage reads a frame");
  return std::make_unique<LowMemoryMovie>(std::move(counts), first);
}

} // namespace frost::movie_align
