#pragma once
/// @file fsc.hpp
/// @brief Fourier shell correlation of two volumes (or of their half spectra).
#include <cstdint>
#include <vector>

#include "frost/reconstruction/precision.hpp"
#include "frost/core/image.hpp"
#include "frost/fft/spec.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// Per-shell FSC. Shell s holds the Fourier samples whose radius |k| (in frequency indices)
/// rounds to s, for s = 0 .. N/2 (samples beyond N/2, the corners, are not used).
struct FscCurve {
  index_t box = 0;                 ///< N (cubic box)
  double pixel_size = 1.0;         ///< Angstrom per pixel
  std::vector<double> fsc;         ///< Re(sum F1 F2*) / sqrt(sum |F1|^2 sum |F2|^2); 0 if empty
  std::vector<double> numerator;   ///< Re(sum F1 F2*) over the full spectrum (Hermitian pairs counted)
  std::vector<double> power1, power2; ///< sum |F1|^2, sum |F2|^2
  std::vector<std::int64_t> count; ///< number of full-spectrum samples per shell
  /// Spatial frequency of shell s in 1/Angstrom: s / (N * pixel_size).
  double frequency(index_t shell) const { return double(shell) / (double(box) * pixel_size); }
  /// Resolution (Angstrom) where the FSC first falls below `threshold`; see crossing_resolution.
  double resolution(double threshold) const;
  double resolution_0143() const { return resolution(0.143); }
  double resolution_05() const { return resolution(0.5); }
};

/// @brief Resolution in Angstrom where a curve first drops below `threshold`, scanning from
/// shell 1. The crossing shell s* is interpolated linearly between the last shell at or above
/// the threshold and the first one below; the result is N * pixel_size / s*. When the curve
/// never drops below, the Nyquist resolution of the last shell is returned (N px / (size-1)).
/// Returns +infinity when shell 1 is already below the threshold and shell 0 is too.
double crossing_resolution(const std::vector<double>& fsc, index_t box, double pixel_size,
                           double threshold);

/// @brief FSC of two half spectra in FFTW r2c layout (x/2+1 fastest, then y, then z) of real
/// cubic volumes of size `real` (N x N x N). Columns 0 < kx < N/2 stand for themselves and their
/// Hermitian partners and are counted twice.
/// @throw frost::Error(Runtime) for non-cubic shapes or spectra of the wrong shape.
FscCurve fsc_half_spectra(View<const fft::Complex> a, View<const fft::Complex> b,
                          const Shape& real, double pixel_size = 1.0);

/// @brief FSC of two real cubic volumes: R2C transforms on the CPU (frost::fft), then
/// fsc_half_spectra. The origin convention does not matter (a common shift cancels).
FscCurve fsc_volumes(View<const float> a, View<const float> b, double pixel_size = 1.0);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
