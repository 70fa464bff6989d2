#pragma once
/// @file fourier_shift.hpp
/// @brief Sub-pixel shifts of half-complex spectra by a phase ramp.
///
/// Layout: the output of an FFTW r2c transform of a real array of shape (nx, ny, nz):
/// (nx/2 + 1) x ny x nz complex values, x fastest, no centring (frequency 0 at index 0).
/// Index j along an axis of n samples is the signed frequency k = j for j <= n/2 and
/// k = j − n above (RELION's FFTW_KSPACE rule, so an even axis's Nyquist index n/2 counts as +n/2).
///
/// Sign convention: shifting the image *content* by +s, I'(r) = I(r − s), multiplies the
/// spectrum (forward transform with exp(−2πi k·r/n)) by exp(−2πi (kx·sx/nx + ky·sy/ny + kz·sz/nz)).
/// fourier_shift_test.cpp pins this against an integer roll of a real image through a direct
/// DFT (a +3 shift in x moves pixel 0 to pixel 3). This is also the ramp that applies a stored shift s
/// (docs/conventions.md#applying-a-shift).
#include <complex>

#include "frost/core/image.hpp"
#include "frost/geometry/hd_math.hpp"

namespace frost::geom {

/// Signed frequency of FFT index j on an axis of n samples (j <= n/2 -> j, else j − n).
FROST_HD inline index_t fft_frequency(index_t j, index_t n) { return j <= n / 2 ? j : j - n; }

/// Phase (radians) of the factor for half-complex element (jx, jy, jz) of a real array of shape
/// (nx, ny, nz) whose content moves by (sx, sy, sz) pixels.
template <class T>
FROST_HD inline T shift_phase(index_t jx, index_t jy, index_t jz, index_t nx, index_t ny, index_t nz,
                              T sx, T sy, T sz) {
  const T fx = static_cast<T>(fft_frequency(jx, nx)) / static_cast<T>(nx);
  const T fy = static_cast<T>(fft_frequency(jy, ny)) / static_cast<T>(ny);
  const T fz = static_cast<T>(fft_frequency(jz, nz)) / static_cast<T>(nz);
  return static_cast<T>(-2.0 * hdm::kPi) * (fx * sx + fy * sy + fz * sz);
}

/// Multiplies (re, im) in place by exp(i·phase).
template <class T>
FROST_HD inline void rotate_phase(T& re, T& im, T phase) {
  const T c = hdm::cos_(phase), s = hdm::sin_(phase);
  const T r = re * c - im * s;
  im = re * s + im * c;
  re = r;
}

/// Shifts every item of a half-complex spectrum (shape real_shape.half_spectrum(), any n) so
/// that the real content moves by (sx, sy, sz) pixels. sz is ignored for 2-D shapes.
template <class T>
void shift_spectrum(View<std::complex<T>> spectrum, Shape real_shape, double sx, double sy, double sz = 0.0);

extern template void shift_spectrum<float>(View<std::complex<float>>, Shape, double, double, double);
extern template void shift_spectrum<double>(View<std::complex<double>>, Shape, double, double, double);

} // namespace frost::geom
