#include "frost/motion/patch_measurer.hpp"

#include <algorithm>
#include <cstddef>
#include <exception>
#include <vector>

#include <omp.h>

#include "frost/core/threads.hpp"
#include "frost/motion/frame_spectra.hpp"

namespace frost::motion {

namespace {

/// One patch stack's measurements (run inside one thread).
std::vector<PairMeasurement> measure_stack(View<const float> stack, const WorkingSizes& sizes, View<const float> filter,
                                           const std::vector<FramePair>& pairs, const CorrelationOptions& options) {
  std::vector<View<const float>> items;
  for (index_t t = 0; t < stack.shape.n; ++t) items.push_back(stack.item(t));
  const Image<fft::Complex> spectra = filtered_spectra(items, sizes, filter);
  return correlate_pairs(spectra.cview(), pairs, sizes, options);
}

/// body(k) for k in [0, count) on up to `threads` threads (k's thread: omp_get_thread_num());
/// an exception is carried out of the parallel region and the first (lowest k) rethrown.
template <class Body>
void for_each_caught(int count, int threads, Body body) {
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(count));
#pragma omp parallel for num_threads(std::max(1, std::min(threads, count))) schedule(dynamic, 1)
  for (int k = 0; k < count; ++k) {
    try {
      body(k);
    } catch (...) {
      errors[static_cast<std::size_t>(k)] = std::current_exception();
    }
  }
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

} // namespace

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
  // One patch per thread: the stack's spectra and correlations run inside that thread (nested
  // regions are inactive), so every patch is computed the same way for any thread count. Each
  // thread fills its own stack, allocated here (outside the parallel region).
  const int threads = std::max(1, std::min(num_threads(), count));
  std::vector<Image<float>> stacks;
  for (int i = 0; i < threads; ++i) stacks.emplace_back(Shape::image(p, p, static_cast<index_t>(frames_.size())));
  for_each_caught(count, threads, [&](int k) {
    Image<float>& stack = stacks[static_cast<std::size_t>(omp_get_thread_num())];
    const PatchCorner c = corners[static_cast<std::size_t>(k)];
    fill_patch_stack(frames_, offsets, c.x, c.y, stack.view());
    out[static_cast<std::size_t>(k)] = measure_stack(stack.cview(), sizes, filter, pairs, options);
  });
  return out;
}

std::vector<std::vector<PairMeasurement>> StreamedPatchMeasurer::measure_patches(
    const PatchOffsets& offsets, const std::vector<PatchCorner>& corners, int patch_size, const WorkingSizes& sizes,
    View<const float> filter, const std::vector<FramePair>& pairs, const CorrelationOptions& options) {
  const int count = static_cast<int>(corners.size());
  const index_t p = patch_size;
  const std::size_t per_stack = static_cast<std::size_t>(p * p * count_) * sizeof(float);
  const int batch = static_cast<int>(std::clamp<std::size_t>(stack_bytes_ / std::max<std::size_t>(1, per_stack), 1,
                                                             static_cast<std::size_t>(std::max(1, count))));
  const int threads = num_threads();
  std::vector<std::vector<PairMeasurement>> out(corners.size());
  frames_loaded_ = 0;
  for (int k0 = 0; k0 < count; k0 += batch) {
    const int kn = std::min(batch, count - k0);
    Image<float> stacks(Shape::image(p, p, static_cast<index_t>(kn) * count_));
    auto stack = [&](int k) {
      return View<float>{stacks.data() + static_cast<index_t>(k) * p * p * count_, Shape::image(p, p, count_)};
    };
    // Frames in small groups loaded in parallel; each is added to every stack in frame order.
    constexpr int kGroup = 4;
    Image<float> frames(Shape::image(size_.x, size_.y, std::min({threads, count_, kGroup})));
    const int group = static_cast<int>(frames.shape().n);
    for (int f0 = 0; f0 < count_; f0 += group) {
      const int fn = std::min(group, count_ - f0);
      for_each_caught(fn, fn, [&](int i) { load_(f0 + i, frames.view().item(i).data); }); // a read may throw
      frames_loaded_ += fn;
      for (int i = 0; i < fn; ++i)
        for_each_caught(kn, threads, [&](int k) {
          const PatchCorner c = corners[static_cast<std::size_t>(k0 + k)];
          add_frame_to_patch_stack(frames.cview().item(i), f0 + i, offsets, c.x, c.y, stack(k));
        });
    }
    for_each_caught(kn, threads, [&](int k) {
      out[static_cast<std::size_t>(k0 + k)] = measure_stack(stack(k), sizes, filter, pairs, options);
    });
  }
  return out;
}

} // namespace frost::motion
