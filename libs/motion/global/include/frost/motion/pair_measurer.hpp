#pragma once
/// @file pair_measurer.hpp
/// @brief The data-parallel half of the global alignment (step 2 of
/// docs/movie_align.md#steps-of-the-global-stage): from the frames of a movie to filtered spectra
/// and pair measurements. The alignment drivers (align_global, the patch stage, the sum mode) are
/// written once against this interface; the host implementation runs FFTW on frames in RAM, the
/// CUDA one (cuda/motion) cuFFT and kernels on frames resident on a GPU. Both run the same
/// per-element rules (correlation_math.hpp) and finish every peak with refine_peak(), so their
/// results agree within float rounding (docs/movie_align.md#cpu-and-gpu-equivalence).
#include <utility>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/fft/spec.hpp"
#include "frost/motion/frame_loader.hpp"
#include "frost/motion/pair_correlation.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion {

/// @brief Frames of one movie (all of one size) and the two operations the global stage needs.
class PairMeasurer {
public:
  virtual ~PairMeasurer() = default;
  virtual int frame_count() const = 0;
  /// Size of every frame (the first frame's; implementations check the others when they use them).
  virtual Size2 frame_size() const = 0;
  /// filtered_spectra() of all frames, on the host: (C_x/2+1) x C_y x 1 x N.
  virtual Image<fft::Complex> spectra(const WorkingSizes& sizes, View<const float> filter) = 0;
  /// correlate_pairs(spectra(sizes, filter), pairs, sizes, options), in the order of `pairs`.
  virtual std::vector<PairMeasurement> measure_pairs(const WorkingSizes& sizes, View<const float> filter,
                                                     const std::vector<FramePair>& pairs,
                                                     const CorrelationOptions& options) = 0;
};

/// @brief Frames in host memory, FFTW through filtered_spectra() and correlate_pairs().
/// Holds views: the frames must outlive the measurer.
class HostPairMeasurer final : public PairMeasurer {
public:
  explicit HostPairMeasurer(std::vector<View<const float>> frames) : frames_(std::move(frames)) {}
  int frame_count() const override { return static_cast<int>(frames_.size()); }
  Size2 frame_size() const override;
  Image<fft::Complex> spectra(const WorkingSizes& sizes, View<const float> filter) override;
  std::vector<PairMeasurement> measure_pairs(const WorkingSizes& sizes, View<const float> filter,
                                             const std::vector<FramePair>& pairs,
                                             const CorrelationOptions& options) override;

private:
  std::vector<View<const float>> frames_;
};

/// @brief Frames made on demand by a FrameLoader (--low-memory): every call loads each frame
/// once, with the results of HostPairMeasurer on the same frames.
class StreamedPairMeasurer final : public PairMeasurer {
public:
  StreamedPairMeasurer(FrameLoader load, int count, Size2 size) : load_(std::move(load)), count_(count), size_(size) {}
  int frame_count() const override { return count_; }
  Size2 frame_size() const override { return size_; }
  Image<fft::Complex> spectra(const WorkingSizes& sizes, View<const float> filter) override;
  std::vector<PairMeasurement> measure_pairs(const WorkingSizes& sizes, View<const float> filter,
                                             const std::vector<FramePair>& pairs,
                                             const CorrelationOptions& options) override;

private:
  FrameLoader load_;
  int count_;
  Size2 size_;
};

/// The items (shape.n) of a stack of 2-D frames as frame views.
/// @throw frost::Error(Usage) when the stack's items are not 2-D.
std::vector<View<const float>> stack_frames(View<const float> stack, const char* stage);

} // namespace frost::motion
