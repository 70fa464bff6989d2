#include <utility>

#include "loaded_movie.hpp"

namespace frost::movie_align {

namespace {

class HostMovie final : public LoadedMovie {
public:
  HostMovie(Image<float> frames, int first)
      : frames_(std::move(frames)), pairs_(motion::stack_frames(frames_.cview(), "movie alignment")),
        patches_(motion::stack_frames(frames_.cview(), "movie alignment")), renderer_(frames_.cview(), first) {}
  motion::PairMeasurer& pairs() override { return pairs_; }
  motion::PatchMeasurer& patches() override { return patches_; }
  motion::FrameRenderer& renderer() override { return renderer_; }
  std::string describe() const override { return "cpu"; }

private:
  Image<float> frames_;
  motion::HostPairMeasurer pairs_;
  motion::HostPatchMeasurer patches_;
  motion::HostFrameRenderer renderer_;
};

} // namespace

std::unique_ptr<LoadedMovie> host_movie(Image<float> frames, int first) {
  return std::make_unique<HostMovie>(std::move(frames), first);
}

} // namespace frost::movie_align
