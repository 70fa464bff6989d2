#pragma once
/// @file dose_weighted_sum.hpp
/// @brief Streaming dose-weighted sum S_DW(k) = Σ_t w_t(k)·Â_t(k) / sqrt(Σ_t w_t(k)²)
/// (docs/movie_align.md#dose-weighting): one forward FFT per added (aligned) frame, one inverse FFT
/// at the end.
///
/// Scale: at low frequency S_DW ≈ (1/√N)·Σ_t A_t, not the plain sum. The result depends on the
/// order in which frames are added (float accumulation), never on the thread count.
#include "frost/core/image.hpp"
#include "frost/fft/fft.hpp"
#include "frost/motion/dose_weighting.hpp"

namespace frost::motion {

/// @brief 1/(2 N_e(k)) for every element of the half spectrum of an nx x ny frame with pixels of
/// `pixel_size` Å ((nx/2+1) x ny; 0 at k = 0, where the weight is exactly 1). The weight of a
/// frame of dose D is dose_weight_from_table(D, value) (warp_math.hpp), on the host and the GPU.
Image<float> half_exposure_inverse(index_t nx, index_t ny, double pixel_size);

class DoseWeightedSum {
public:
  /// @brief For frames of nx x ny pixels of size `pixel_size` Å (the processing pixel size).
  /// @throw frost::Error(Usage) for an invalid schedule; frost::Error(Runtime) for bad sizes.
  DoseWeightedSum(index_t nx, index_t ny, double pixel_size, DoseSchedule schedule);

  /// Adds aligned frame of absolute index `frame` (its dose is frame_dose(schedule, frame)).
  void add(int frame, View<const float> aligned);
  int frames_added() const noexcept { return frames_added_; }
  /// @brief S_DW as a real image. @throw frost::Error(Runtime) when no frame was added.
  Image<float> result() const;

private:
  index_t nx_, ny_;
  DoseSchedule schedule_;
  Image<float> half_exposure_inv_;   ///< 1 / (2 N_e(k)) per half-spectrum element (0 at k = 0)
  Image<fft::Complex> weighted_;     ///< Σ w Â
  Image<float> weight_sq_;           ///< Σ w²
  Image<fft::Complex> spectrum_;     ///< scratch: spectrum of the frame being added
  fft::FftPlan forward_, inverse_;
  int frames_added_ = 0;
};

} // namespace frost::motion
