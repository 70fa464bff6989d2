#pragma once
// Direct (O(N²)) discrete Fourier transforms for the geometry tests, so that the shift and
// crop/pad tests do not depend on the FFT library. Conventions match FFTW: forward
// F(k) = Σ_r f(r)·exp(−2πi k·r/n), unnormalised; half-complex layout (nx/2+1) x ny x nz.
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "frost/core/shape.hpp"

namespace frost::test {

using cd = std::complex<double>;
constexpr double kTwoPi = 6.283185307179586476925286766559;

/// Full complex DFT of a complex array of shape s (one item), sign −1 (forward) or +1 (inverse,
/// unnormalised).
inline std::vector<cd> dft_full(const std::vector<cd>& f, Shape s, int sign) {
  std::vector<cd> out(static_cast<std::size_t>(s.pixels_per_item()));
  for (index_t kz = 0; kz < s.z; ++kz)
    for (index_t ky = 0; ky < s.y; ++ky)
      for (index_t kx = 0; kx < s.x; ++kx) {
        cd acc = 0;
        for (index_t z = 0; z < s.z; ++z)
          for (index_t y = 0; y < s.y; ++y)
            for (index_t x = 0; x < s.x; ++x) {
              const double ph = sign * kTwoPi *
                                (static_cast<double>(kx * x) / static_cast<double>(s.x) +
                                 static_cast<double>(ky * y) / static_cast<double>(s.y) +
                                 static_cast<double>(kz * z) / static_cast<double>(s.z));
              acc += f[static_cast<std::size_t>(s.index(x, y, z))] * cd(std::cos(ph), std::sin(ph));
            }
        out[static_cast<std::size_t>(s.index(kx, ky, kz))] = acc;
      }
  return out;
}

/// Half-complex forward DFT of a real array (the r2c output layout).
template <class T>
std::vector<cd> dft_r2c(const std::vector<T>& f, Shape s) {
  std::vector<cd> in(f.begin(), f.end());
  const std::vector<cd> full = dft_full(in, s, -1);
  const Shape h = s.half_spectrum();
  std::vector<cd> out(static_cast<std::size_t>(h.pixels_per_item()));
  for (index_t z = 0; z < h.z; ++z)
    for (index_t y = 0; y < h.y; ++y)
      for (index_t x = 0; x < h.x; ++x)
        out[static_cast<std::size_t>(h.index(x, y, z))] = full[static_cast<std::size_t>(s.index(x, y, z))];
  return out;
}

/// Full spectrum rebuilt from a half spectrum by Hermitian symmetry F(−k) = conj F(k).
inline std::vector<cd> hermitian_full(const std::vector<cd>& half, Shape s) {
  const Shape h = s.half_spectrum();
  std::vector<cd> full(static_cast<std::size_t>(s.pixels_per_item()));
  for (index_t z = 0; z < s.z; ++z)
    for (index_t y = 0; y < s.y; ++y)
      for (index_t x = 0; x < s.x; ++x) {
        cd v;
        if (x < h.x) {
          v = half[static_cast<std::size_t>(h.index(x, y, z))];
        } else {
          v = std::conj(half[static_cast<std::size_t>(h.index(s.x - x, (s.y - y) % s.y, (s.z - z) % s.z))]);
        }
        full[static_cast<std::size_t>(s.index(x, y, z))] = v;
      }
  return full;
}

/// Inverse of a half spectrum, normalised by 1/N, as complex values: the imaginary part is 0
/// (to rounding) exactly when the stored half spectrum is Hermitian where it overlaps itself.
inline std::vector<cd> idft_c2c_from_half(const std::vector<cd>& half, Shape s) {
  std::vector<cd> r = dft_full(hermitian_full(half, s), s, +1);
  const double norm = 1.0 / static_cast<double>(s.pixels_per_item());
  for (cd& v : r) v *= norm;
  return r;
}

inline double max_abs_imag(const std::vector<cd>& v) {
  double m = 0;
  for (const cd& c : v) m = std::max(m, std::abs(c.imag()));
  return m;
}

inline double max_abs_diff(const std::vector<cd>& a, const std::vector<cd>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

} // namespace frost::test
