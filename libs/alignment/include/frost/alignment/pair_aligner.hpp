#pragma once
/// @file pair_aligner.hpp
/// @brief The per-pair estimator of docs/align_significant.md#the-per-pair-estimator on the CPU:
/// reference precomputation, shift step, rotation step, CC and the two-order iteration. One
/// instance per thread (it owns its scratch); the FFTW plans are shared.
///
/// The shift step works on any even nx × ny (the unit tests use rectangles, as Xmipp's do); the
/// rotation step and align() need square images (the polar grid is defined for X × X).
#include <cstdint>

#include "frost/alignment/math/polar.hpp"
#include "frost/alignment/settings.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/fft/plan.hpp"

namespace frost::align {

/// Which step comes first in an iteration.
enum class Order { RotationFirst, ShiftFirst };

/// Everything the estimator needs from one reference, computed once
/// (docs/align_significant.md#reference-precomputation).
struct ReferenceData {
  const float* pixels = nullptr;       ///< the reference itself (not owned), nx·ny floats
  HostBuffer<fft::Complex> spectrum;   ///< F_R, (nx/2+1)·ny
  HostBuffer<fft::Complex> polar;      ///< G_R, rings·(S/2+1) (square images only)
  double mean = 0, stddev = 0;         ///< population statistics over all pixels
};

/// Result of one order (instrumentation for tests; align() keeps the better one).
struct OrderResult {
  float cc = 0;
  Pose2 pose;
};

class CpuPairAligner {
public:
  /// @brief Plans (FFTW, one thread, estimate rigor unless `measure`) and scratch for nx × ny.
  /// @throw frost::Error(Runtime) for odd sizes or sizes below 6 px.
  CpuPairAligner(int nx, int ny, bool measure = false);

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  const PolarGrid& grid() const { return grid_; }

  /// Fills `out` for the reference at `pixels` (kept by pointer: it must outlive `out`).
  void prepare_reference(const float* pixels, ReferenceData& out);

  /// @brief The shift d (pixels) that moves `image` onto the reference: the peak of
  /// Σ_p Ref(p + d)·D(p) within |d| ≤ radius, refined as `subpixel` says.
  void estimate_shift(const ReferenceData& ref, const float* image, int radius, SubpixelMethod subpixel, float& dx,
                      float& dy);
  /// @brief The rotation θ [deg, in [0, 360)) such that W_{R(θ)}[image] matches the reference.
  float estimate_rotation(const ReferenceData& ref, const float* image, SubpixelMethod subpixel);
  /// @brief Pearson CC over all pixels (double sums; 0 when the image is constant).
  double correlation(const ReferenceData& ref, const float* image) const;
  /// @brief dst = W_A[src] (docs/align_significant.md#conventions), nx·ny floats.
  void warp(const float* src, const Pose2& pose, float* dst) const;

  /// @brief One order from the identity: `iters` × (rotation, shift) or (shift, rotation); the
  /// aligned image is left in aligned() (re-warped from the original after every step).
  OrderResult align_order(const ReferenceData& ref, const float* image, Order order, const AlignSettings& s);
  /// @brief Both orders; the larger CC wins, rotation-first on ties
  /// (docs/align_significant.md#two-orders-and-iterations). With s.check_mirrors, `mirrored` (the X-mirror of
  /// the image, see mirror_x) is aligned too and wins only with a strictly larger CC. Applies s.max_shift.
  PairResult align(const ReferenceData& ref, const float* image, const float* mirrored, const AlignSettings& s);

  /// The aligned image of the last align_order() call.
  const float* aligned() const { return aligned_.data(); }

private:
  int nx_, ny_;
  PolarGrid grid_;
  fft::FftPlan r2c_, c2r_, ring_r2c_, ring_c2r_;
  HostBuffer<float> aligned_, real_, polar_, rho_;
  HostBuffer<fft::Complex> spectrum_, polar_spectrum_, ring_sum_;
  HostBuffer<float> sin_, cos_;
};

/// @brief dst(x, y) = src(−x, y) in centred coordinates (exact mirror about the centre; the
/// column with no mirror partner becomes 0).
void mirror_x(const float* src, int nx, int ny, float* dst);

} // namespace frost::align
