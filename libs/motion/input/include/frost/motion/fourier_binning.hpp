#pragma once
/// @file fourier_binning.hpp
/// @brief Real-valued binning at load time (docs/movie_align.md#binning-and-memory): FFT the frame, keep the
/// central X_b x Y_b Fourier block with X_b = 2·round(X/(2b)), inverse FFT.
#include <memory>

#include "frost/core/shape.hpp"

namespace frost::motion {

/// @brief The binned size 2·round(n/(2b)) (always even). @throw usage error for b < 1.
index_t binned_size(index_t n, double factor);

/// @brief Fourier-crops frames of one size to the binned size.
///
/// The kept block holds frequencies |kx| < X_b/2, |ky| < Y_b/2; the Nyquist column and row of
/// the output are zeroed on each axis that is cropped (the input has no Hermitian pair for
/// them). Values are scaled so that the mean pixel value is kept (a binned frame of counts
/// shows counts per input pixel). Plans come from frost::fft's shared CPU planner with one
/// thread each, since frames are binned in parallel; apply() is thread-safe.
class FourierBinner {
public:
  FourierBinner(index_t width, index_t height, double factor);
  ~FourierBinner();
  FourierBinner(const FourierBinner&) = delete;
  FourierBinner& operator=(const FourierBinner&) = delete;

  index_t in_width() const { return in_w_; }
  index_t in_height() const { return in_h_; }
  index_t out_width() const { return out_w_; }
  index_t out_height() const { return out_h_; }
  /// True when nothing changes (b = 1): callers skip the transforms.
  bool identity() const { return identity_; }

  /// @brief Floats of the work buffer apply_in_place() needs: 2·(X/2+1)·Y.
  index_t scratch_floats() const;
  /// @brief Bins a frame held densely (X·Y floats, x fastest) at the start of `scratch`
  /// (scratch_floats() long, preferably 64-byte aligned), which is overwritten; writes
  /// X_b·Y_b floats to `out` (which must not overlap `scratch`).
  void apply_in_place(float* scratch, float* out) const;
  /// @brief Bins `in` (X·Y floats, unchanged) into `out`, using a temporary work buffer.
  void apply(const float* in, float* out) const;

private:
  struct Plans;
  index_t in_w_, in_h_, out_w_, out_h_;
  bool identity_;
  std::unique_ptr<Plans> plans_;
};

} // namespace frost::motion
