#pragma once
/// @file patch_measurer.hpp
/// @brief The data-parallel half of the local alignment
/// (docs/movie_align.md#patch-stacks-and-the-rounding-correction): patch stacks of many patches and the
/// pair measurements of each. align_local() is written once against this interface; the host implementation
/// fills each stack in RAM and measures it with FFTW (HostPairMeasurer), the CUDA one (cuda/motion) builds
/// the stacks from frames resident on the GPU and measures batches of patches with cuFFT.
#include <cstddef>
#include <utility>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/motion/frame_loader.hpp"
#include "frost/motion/pair_correlation.hpp"
#include "frost/motion/patch_stack.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion {

/// Top-left pixel of a patch [processing px].
struct PatchCorner {
  int x = 0, y = 0;
};

class PatchMeasurer {
public:
  virtual ~PatchMeasurer() = default;
  virtual int frame_count() const = 0;
  virtual Size2 frame_size() const = 0;
  /// @brief For every corner k: the measurements of `pairs` on the patch stack
  /// fill_patch_stack(frames, offsets, corners[k].x, corners[k].y) (P x P x 1 x N, P =
  /// `patch_size`), measured as PairMeasurer::measure_pairs measures frames (spectra at `sizes`
  /// with `filter`, then the correlations). Result k belongs to corners[k].
  virtual std::vector<std::vector<PairMeasurement>> measure_patches(const PatchOffsets& offsets,
                                                                    const std::vector<PatchCorner>& corners,
                                                                    int patch_size, const WorkingSizes& sizes,
                                                                    View<const float> filter,
                                                                    const std::vector<FramePair>& pairs,
                                                                    const CorrelationOptions& options) = 0;
};

/// @brief Frames in host memory: patches in parallel (OpenMP), each stack filled and measured by
/// one thread (filtered_spectra + correlate_pairs), so results do not depend on the thread count.
/// Holds views: the frames must outlive the measurer.
class HostPatchMeasurer final : public PatchMeasurer {
public:
  explicit HostPatchMeasurer(std::vector<View<const float>> frames) : frames_(std::move(frames)) {}
  int frame_count() const override { return static_cast<int>(frames_.size()); }
  Size2 frame_size() const override;
  std::vector<std::vector<PairMeasurement>> measure_patches(const PatchOffsets& offsets,
                                                            const std::vector<PatchCorner>& corners, int patch_size,
                                                            const WorkingSizes& sizes, View<const float> filter,
                                                            const std::vector<FramePair>& pairs,
                                                            const CorrelationOptions& options) override;

private:
  std::vector<View<const float>> frames_;
};

/// @brief Frames made on demand by a FrameLoader (--low-memory). Patches are measured in batches
/// whose stacks fit `stack_bytes` (at least one patch per batch): for each batch every frame is
/// loaded once and added to all its stacks (add_frame_to_patch_stack, frames in order), then the
/// stacks are measured as HostPatchMeasurer measures them, so the results are the same.
class StreamedPatchMeasurer final : public PatchMeasurer {
public:
  StreamedPatchMeasurer(FrameLoader load, int count, Size2 size, std::size_t stack_bytes)
      : load_(std::move(load)), count_(count), size_(size), stack_bytes_(stack_bytes) {}
  int frame_count() const override { return count_; }
  Size2 frame_size() const override { return size_; }
  std::vector<std::vector<PairMeasurement>> measure_patches(const PatchOffsets& offsets,
                                                            const std::vector<PatchCorner>& corners, int patch_size,
                                                            const WorkingSizes& sizes, View<const float> filter,
                                                            const std::vector<FramePair>& pairs,
                                                            const CorrelationOptions& options) override;
  /// Frames loaded by the last measure_patches() (frames × batches), for tests.
  long long frames_loaded() const { return frames_loaded_; }

private:
  FrameLoader load_;
  int count_;
  Size2 size_;
  std::size_t stack_bytes_;
  long long frames_loaded_ = 0;
};

} // namespace frost::motion
