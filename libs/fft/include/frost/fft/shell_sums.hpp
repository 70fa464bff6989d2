#pragma once
/// @file shell_sums.hpp
/// @brief Sums over the Fourier shells (rings) of two R2C half spectra of one image size: the
/// per-shell cross term and powers of a Fourier ring correlation, and the two powers in a band of
/// frequencies (docs/session.md#half-sum-frc). The per-element rule is FROST_HD: the CUDA kernel
/// of the movie render (cuda/motion) sums exactly the elements the host sums.
#include <cmath>
#include <complex>
#include <vector>

#include "frost/core/hd.hpp"
#include "frost/core/shape.hpp"

namespace frost::fft {

/// Element (x, y) of the half spectrum (nx/2+1 by ny, x fastest) of an nx x ny image.
struct ShellElement {
  double frequency; ///< cycles per pixel, scaled per axis: sqrt((kx/nx)^2 + (ky/ny)^2)
  double weight;    ///< 2 for a column whose conjugate is not stored; 1 for kx = 0 and (even nx) kx = nx/2
};

FROST_HD inline ShellElement shell_element(index_t x, index_t y, index_t nx, index_t ny) {
  const double ky = static_cast<double>(y <= ny / 2 ? y : y - ny) / static_cast<double>(ny);
  const double kx = static_cast<double>(x) / static_cast<double>(nx);
  return {sqrt(kx * kx + ky * ky), (x == 0 || (nx % 2 == 0 && x == nx / 2)) ? 1.0 : 2.0};
}

/// Shells are 1/rings cycles per pixel wide, rings = min(nx, ny), and shell s is centred on
/// s / rings; shells 0 .. rings/2 reach Nyquist of the shorter axis. Corner elements beyond it
/// fall in no shell (shell_of() >= shell_count()).
FROST_HD inline int shell_rings(index_t nx, index_t ny) { return static_cast<int>(nx < ny ? nx : ny); }
FROST_HD inline int shell_count(int rings) { return rings / 2 + 1; }
FROST_HD inline long shell_of(double frequency, int rings) { return lround(frequency * rings); }

/// Frequencies [lo, hi] in cycles per pixel (Nyquist is 0.5 on each axis).
struct FrequencyBand {
  double lo = 0.25, hi = 0.5;
};

/// What shell_sums() adds up, each term times shell_element()'s weight.
struct ShellSums {
  int rings = 0;
  std::vector<double> cross;   ///< per shell: Re(A conj(B))
  std::vector<double> power_a; ///< per shell: |A|^2
  std::vector<double> power_b; ///< per shell: |B|^2
  double band_a = 0, band_b = 0; ///< |A|^2 and |B|^2 over the elements whose frequency is in the band
};

/// Layout of the sums as one array (the CUDA kernel's output): cross, power_a, power_b (each
/// shell_count doubles), then band_a and band_b.
inline std::size_t shell_sums_array_size(int rings) { return 3 * static_cast<std::size_t>(shell_count(rings)) + 2; }
ShellSums shell_sums_from_array(const double* array, int rings);

/// @brief The sums of two half spectra of an nx x ny image (nx/2+1 by ny each, x fastest).
/// Rows are summed in fixed blocks on the CPU threads and the blocks added in order, so the result
/// does not depend on the thread count.
ShellSums shell_sums(const std::complex<float>* a, const std::complex<float>* b, index_t nx, index_t ny,
                     FrequencyBand band = {});

} // namespace frost::fft
