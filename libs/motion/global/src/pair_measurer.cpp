#include "frost/motion/pair_measurer.hpp"

#include <string>

#include "frost/core/error.hpp"
#include "frost/motion/frame_spectra.hpp"

namespace frost::motion {

Size2 HostPairMeasurer::frame_size() const {
  if (frames_.empty()) return {};
  return {frames_[0].shape.x, frames_[0].shape.y};
}

Image<fft::Complex> HostPairMeasurer::spectra(const WorkingSizes& sizes, View<const float> filter) {
  return filtered_spectra(frames_, sizes, filter);
}

std::vector<PairMeasurement> HostPairMeasurer::measure_pairs(const WorkingSizes& sizes, View<const float> filter,
                                                             const std::vector<FramePair>& pairs,
                                                             const CorrelationOptions& options) {
  const Image<fft::Complex> s = filtered_spectra(frames_, sizes, filter);
  return correlate_pairs(s.cview(), pairs, sizes, options);
}

Image<fft::Complex> StreamedPairMeasurer::spectra(const WorkingSizes& sizes, View<const float> filter) {
  if (sizes.frame.x != size_.x || sizes.frame.y != size_.y)
    throw_usage_error("frames are " + std::to_string(size_.x) + "x" + std::to_string(size_.y) + " pixels, expected " +
                      std::to_string(sizes.frame.x) + "x" + std::to_string(sizes.frame.y));
  return filtered_spectra(count_, load_, sizes, filter);
}

std::vector<PairMeasurement> StreamedPairMeasurer::measure_pairs(const WorkingSizes& sizes, View<const float> filter,
                                                                 const std::vector<FramePair>& pairs,
                                                                 const CorrelationOptions& options) {
  const Image<fft::Complex> s = spectra(sizes, filter);
  return correlate_pairs(s.cview(), pairs, sizes, options);
}

std::vector<View<const float>> stack_frames(View<const float> stack, const char* stage) {
  if (stack.shape.z != 1)
    throw_usage_error(std::string(stage) + " expects a stack of 2-D frames, got " + to_string(stack.shape));
  std::vector<View<const float>> frames;
  for (index_t t = 0; t < stack.shape.n; ++t) frames.push_back(stack.item(t));
  return frames;
}

} // namespace frost::motion
