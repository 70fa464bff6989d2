#pragma once
/// @file sample_preparer.hpp
/// @brief CPU sample preparation (steps 2-6 of docs/reconstruct_fourier.md#sample-preparation): pad,
/// centre, R2C FFT scaled by 1/P^2, shift as a phase ramp, crop into the half-plane layout, CTF
/// factors and one traverse space per symmetry element. One preparer per thread (it owns FFT buffers).
#include <complex>
#include <memory>
#include <vector>

#include "frost/reconstruction/precision.hpp"
#include "frost/core/image.hpp"
#include "frost/fft/plan.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/particle.hpp"
#include "frost/reconstruction/sample_batch.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

class FftwImageR2C; // double build only (src/fftw_double.hpp)

class SamplePreparer {
public:
  SamplePreparer(const ReconstructionSettings& settings, const GridLayout& layout,
                 const geom::SymmetryGroup& group);

  /// @brief Prepares `image` (N x N) of `particle` into slot `slot` of `batch` (spectrum, weight
  /// factors, traverse spaces; for an image batch the image, shift, CTF factors and traverse
  /// spaces). Does not change batch.size(). Throws frost::Error(Input) naming the file and row for
  /// a wrong size, a non-finite pixel or missing CTF parameters.
  void prepare(View<const float> image, const ParticleRecord& particle, SampleBatch& batch, int slot);

  /// Step 2-4 only: the centred, scaled, shifted and cropped half-plane spectrum of `image`
  /// (fy rows of fx values) written to `out`.
  void transform(View<const float> image, double shift_x, double shift_y, RealComplex* out);

  /// @brief Step 5: CTF factor gf (applied to the spectrum) and weight factor gw per pixel of
  /// the half-plane layout for `ctf` at the settings' pixel size and mode.
  void ctf_factors(const ctf::CtfParams& ctf, Real* gf, Real* gw) const;

  /// Step 6: the traverse spaces of every symmetry element for the pose, written to `out`.
  void traverse_spaces(const geom::EulerAngles& pose, int slot, Real weight, TraverseSpace* out) const;

private:
  void check(View<const float> image, const ParticleRecord& particle) const;

  ReconstructionSettings settings_;
  GridLayout layout_;
  std::vector<geom::Mat3d> group_;
#if FROST_RECON_DOUBLE
  std::shared_ptr<const FftwImageR2C> plan_; ///< FFTW double: frost::fft is float only
#else
  fft::FftPlan plan_;
#endif
  Image<Real> padded_;
  Image<RealComplex> spectrum_;
  std::vector<Real> gf_;
  struct Ramp {
    double re = 0, im = 0;
  };
  std::vector<Ramp> ramp_x_, ramp_y_; ///< shift phase ramp per column / row (sample_math.hpp)
};

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
