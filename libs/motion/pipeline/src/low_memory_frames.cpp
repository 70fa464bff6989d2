// --low-memory on the CPU (docs/movie_align.md#low-memory-mode): the frames stay integer counts
// and every stage corrects a frame when it reads it (CountFrames, the streamed measurers and
// renderer).
#include <cstdio>
#include <memory>
#include <string>

#include "frost/core/log.hpp"
#include "frost/motion/count_frames.hpp"
#include "host_frames.hpp"

namespace frost::motion::detail {

namespace {

std::string mib(double bytes) {
  char s[32];
  std::snprintf(s, sizeof s, "%.1f MiB", bytes / (1024.0 * 1024.0));
  return s;
}

class LowMemoryFrames final : public MovieFrames {
public:
  LowMemoryFrames(std::unique_ptr<CountFrames> counts, int first)
      : counts_(std::move(counts)), pairs_(loader(), count(), size()),
        patches_(loader(), count(), size(), counts_->bytes()), renderer_(loader(), size().x, size().y, count(), first) {}
  PairMeasurer& pairs() override { return pairs_; }
  PatchMeasurer& patches() override { return patches_; }
  FrameRenderer& renderer() override { return renderer_; }
  std::string describe() const override { return "cpu (--low-memory: " + std::to_string(counts_->bits()) + "-bit counts)"; }
  Image<float> copy_frames() const override {
    const Shape frame = counts_->frame_shape();
    Image<float> copy(Shape::image(frame.x, frame.y, counts_->frame_count()));
    for (index_t t = 0; t < counts_->frame_count(); ++t) counts_->frame(t, copy.data() + t * frame.total());
    return copy;
  }

private:
  FrameLoader loader() const {
    const CountFrames* c = counts_.get();
    return [c](int t, float* out) { c->frame(t, out); };
  }
  int count() const { return static_cast<int>(counts_->frame_count()); }
  Size2 size() const { return {counts_->frame_shape().x, counts_->frame_shape().y}; }

  std::unique_ptr<CountFrames> counts_;
  StreamedPairMeasurer pairs_;
  StreamedPatchMeasurer patches_;
  StreamedFrameRenderer renderer_;
};

} // namespace

std::unique_ptr<MovieFrames> low_memory_frames(MovieReader& reader, int first) {
  const int bits = CountFrames::bits_for(reader);
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
  std::unique_ptr<CountFrames> counts = CountFrames::read(reader);
  log_info("--low-memory: frames held as " + std::to_string(bits) + "-bit counts, " + mib(as_counts) + " instead of " +
           mib(as_float) + " as float32 (" + mib(as_float - as_counts) +
           " saved); dark, gain, bad pixels and binning are applied whenever a stage reads a frame");
  return std::make_unique<LowMemoryFrames>(std::move(counts), first);
}

} // namespace frost::motion::detail
