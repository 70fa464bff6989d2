#include "frost/motion/patch_measurer.hpp"

#include <algorithm>
#include <exception>

#include "frost/core/threads.hpp"
#include "frost/motion/frame_spectra.hpp"

namespace frost::motion {

Size2 HostPatchMeasurer::frame_size() const {
  if (frames_.empty()) return {};
  return {frames_[0].shape.x, frames_[0].shape.y};
}

std::vector<std::vector<PairMeasurement>> HostPatchMeasurer::measure_patches(
    const PatchOffsets& offsets, const std::vector<PatchCorner>& corners, int patch_size, const WorkingSizes& sizes,
    View<const float> filter, const std::vector<FramePair>& pairs, const CorrelationOptions& options) {
  const int count = static_cast<int>(corners.size());
  const index_t p = patch_size;
  std::vector<std::vector<PairMeasurement>> out(corners.size());
  std::vector<std::exception_ptr> errors(corners.size());
  // One patch per thread: the stack's spectra and correlations run inside that thread (nested
  // regions are inactive), so every patch is computed the same way for any thread count.
#pragma omp parallel num_threads(std::max(1, std::min(num_threads(), count)))
  {
    Image<float> stack(Shape::image(p, p, static_cast<index_t>(frames_.size())));
    std::vector<View<const float>> items;
    for (index_t t = 0; t < stack.shape().n; ++t) items.push_back(stack.cview().item(t));
#pragma omp for schedule(dynamic, 1)
    for (int k = 0; k < count; ++k) {
      try {
        const PatchCorner c = corners[static_cast<std::size_t>(k)];
        fill_patch_stack(frames_, offsets, c.x, c.y, stack.view());
        const Image<fft::Complex> spectra = filtered_spectra(items, sizes, filter);
        out[static_cast<std::size_t>(k)] = correlate_pairs(spectra.cview(), pairs, sizes, options);
      } catch (...) {
        errors[static_cast<std::size_t>(k)] = std::current_exception();
      }
    }
  }
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return out;
}

} // namespace frost::motion
