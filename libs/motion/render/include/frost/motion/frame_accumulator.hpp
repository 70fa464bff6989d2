#pragma once
/// @file frame_accumulator.hpp
/// @brief The sums of docs/movie_align.md#sums and #dose-weighting, built one frame at a time so
/// that a program can warp and accumulate without holding every warped frame.
///
/// The accumulator is made for a range of absolute frames [first_frame, first_frame + count)
/// (`--frameRangeSum`). Frames are added in increasing order (aligned and unaligned frames each
/// in their own order); finish() checks that every frame of the range came. Sums are float and
/// are accumulated pixel by pixel in the order of the frames, so they do not depend on the thread
/// count. The aligned sum is the sum of the even- and odd-frame halves, so the halves always add
/// up to it exactly (before mean normalisation). Halves split on the absolute frame index.
#include <optional>
#include <string>

#include "frost/core/image.hpp"
#include "frost/motion/dose_weighted_sum.hpp"
#include "frost/motion/dose_weighting.hpp"
#include "frost/motion/sum_quality.hpp"

namespace frost::motion {

/// `--normalize`: write the sum of the frames (MotionCor2, RELION) or their mean (Xmipp --oavg).
enum class SumNormalization { Sum, Mean };
/// @brief "sum" or "mean". @throw frost::Error(Usage) otherwise.
SumNormalization parse_sum_normalization(const std::string& text);

/// Which outputs to build.
struct SumOptions {
  bool aligned_sum = true;     ///< Σ A_t (also what the PSD is computed from)
  bool unaligned_sum = false;  ///< Σ F_t (`--oavgInitial`)
  bool halves = false;         ///< sums over even / odd absolute frame indices (`--ohalves`)
  bool aligned_frames = false; ///< the aligned stack (`--oaligned`), held in memory
  bool dose_weighted = false;  ///< S_DW (docs/movie_align.md#dose-weighting); not changed by `normalization`
  DoseSchedule dose;           ///< used when dose_weighted
  double pixel_size = 1.0;     ///< processing pixel size [Å/px], for the dose weights
  SumNormalization normalization = SumNormalization::Sum; ///< aligned, unaligned and half sums
  /// FrameSums::quality: the half sums' shell sums and, with dose weighting, the weighting
  /// check's (sum_quality.hpp), whether or not those sums are returned.
  bool quality = false;
};

/// What finish() returns; images not requested are empty (shape 0).
struct FrameSums {
  Image<float> aligned;        ///< Σ A_t, or the mean
  Image<float> unaligned;      ///< Σ F_t, or the mean
  Image<float> even, odd;      ///< halves (each its own mean under Mean)
  Image<float> dose_weighted;  ///< S_DW
  Image<float> aligned_frames; ///< nx x ny x count stack, item i = frame first_frame + i
  std::optional<SumQuality> quality; ///< with SumOptions::quality
  int first_frame = 0, frame_count = 0;
};

class FrameAccumulator {
public:
  /// @throw frost::Error(Runtime) for sizes < 1 or count < 1; frost::Error(Usage) for an invalid
  /// dose schedule when dose weighting is requested.
  FrameAccumulator(index_t nx, index_t ny, int first_frame, int frame_count, SumOptions options);

  const SumOptions& options() const noexcept { return options_; }
  /// True when add_unaligned() is expected (unaligned_sum requested).
  bool wants_unaligned() const noexcept { return options_.unaligned_sum; }

  /// @brief Adds the aligned frame of absolute index `frame`.
  /// @throw frost::Error(Runtime) for a frame outside the range, not after the previous one, of
  /// the wrong shape, or after finish().
  void add_aligned(int frame, View<const float> aligned);
  /// Adds the unaligned (gain-corrected) frame; ignored unless unaligned_sum was requested.
  void add_unaligned(int frame, View<const float> unaligned);

  /// @brief The requested sums. Called once; the accumulator accepts nothing afterwards.
  /// @throw frost::Error(Runtime) when a frame of the range was not added, or on a second call.
  FrameSums finish();

private:
  void check_frame(int frame, int last_added, View<const float> image, const char* what) const;

  index_t nx_, ny_;
  int first_, count_;
  SumOptions options_;
  Image<float> even_, odd_, unaligned_, stack_;
  std::optional<DoseWeightedSum> dose_weighted_;
  int last_aligned_, last_unaligned_;
  int aligned_added_ = 0, unaligned_added_ = 0, even_added_ = 0, odd_added_ = 0;
  bool finished_ = false;
};

} // namespace frost::motion
