#pragma once
/// @file sample_math.hpp
/// @brief The per-pixel steps of sample preparation (steps 2-4 of
/// docs/reconstruct_fourier.md#sample-preparation) that both the CPU preparer and the CUDA
/// preparation kernels run: where an image pixel lands in the padded, centred FFT input, the shift
/// phase ramp, and the crop of the R2C spectrum into the half-plane sample layout.
#include <math.h>

#include "frost/core/hd.hpp"
#include "frost/core/shape.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/precision.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// The image coordinate (0..N-1) whose pixel lands at padded index p (0..P-1) when an N-pixel
/// axis is centred at N/2 and moved to the FFT origin (offset r from the centre goes to
/// r mod P), or -1 for a padding zero. The inverse of p = periodic_index(x - N/2, P).
FROST_HD inline int padded_source(int p, int N, int P) {
  const int c = N / 2;
  const int r = p <= N - 1 - c ? p : p - P; // offsets -c .. N-1-c; P >= N keeps them apart
  const int x = r + c;
  return x >= 0 && x < N ? x : -1;
}

/// One axis of the shift phase ramp (docs/reconstruct_fourier.md#shifts-as-a-phase-ramp), I'(r) = I(r - s)
/// <=> F'(k) = F(k) exp(-2 pi i k s / P), times `scale`: the separable factor of frequency k for shift s.
FROST_HD inline void shift_ramp(int k, double s, int P, double scale, double& re, double& im) {
  const double phase = -2.0 * 3.14159265358979323846 * k * s / P;
  re = scale * cos(phase);
  im = scale * sin(phase);
}

/// @brief Sample pixel (kx, row) of the half-plane layout (ky = row - M/2) from `row`, the R2C
/// spectrum row of ky mod P, given the two ramp factors (rx: with the 1/P^2 scale, ry: unit):
/// row[kx] (rx ry), or 0 beyond the frequency limit (row[kx] is then not read: with an odd P the
/// sample may be one column wider than the spectrum row). Double inside, as the CPU path.
FROST_HD inline Cf sample_pixel(const Cf* row, int kx, int ky, double limit, double rx_re, double rx_im,
                                double ry_re, double ry_im) {
  Cf out{Real(0), Real(0)};
  if (double(kx) * kx + double(ky) * ky > limit) return out;
  const double r_re = rx_re * ry_re - rx_im * ry_im, r_im = rx_re * ry_im + rx_im * ry_re;
  const double fr = row[kx].re, fi = row[kx].im;
  out.re = static_cast<Real>(fr * r_re - fi * r_im);
  out.im = static_cast<Real>(fr * r_im + fi * r_re);
  return out;
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
