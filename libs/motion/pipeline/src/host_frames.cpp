// Frames in host RAM: the host measurers and renderer over one float stack.
#include <algorithm>
#include <utility>

#include "host_frames.hpp"

namespace frost::motion::detail {

namespace {

class HostFrames final : public MovieFrames {
public:
  HostFrames(Image<float> frames, int first)
      : frames_(std::move(frames)), pairs_(stack_frames(frames_.cview(), "movie alignment")),
        patches_(stack_frames(frames_.cview(), "movie alignment")), renderer_(frames_.cview(), first) {}
  PairMeasurer& pairs() override { return pairs_; }
  PatchMeasurer& patches() override { return patches_; }
  FrameRenderer& renderer() override { return renderer_; }
  std::string describe() const override { return "cpu"; }
  Image<float> copy_frames() const override {
    Image<float> copy(frames_.shape());
    std::copy(frames_.begin(), frames_.end(), copy.begin());
    return copy;
  }

private:
  Image<float> frames_;
  HostPairMeasurer pairs_;
  HostPatchMeasurer patches_;
  HostFrameRenderer renderer_;
};

} // namespace

std::unique_ptr<MovieFrames> host_frames(Image<float> frames, int first) {
  return std::make_unique<HostFrames>(std::move(frames), first);
}

} // namespace frost::motion::detail
