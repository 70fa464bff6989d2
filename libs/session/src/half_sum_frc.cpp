#include "frost/session/half_sum_frc.hpp"

#include <algorithm>
#include <cmath>

#include "fourier_rings.hpp"
#include "frost/core/error.hpp"

namespace frost::session {

FrcCurve fourier_ring_correlation(View<const float> a, View<const float> b, double pixel_size_A, int gpu) {
  FROST_EXPECTS(a.shape.x == b.shape.x && a.shape.y == b.shape.y, "FRC: the two images differ in size");
  FROST_EXPECTS(a.shape.x >= 8 && a.shape.y >= 8, "FRC: images smaller than 8 x 8");
  const index_t nx = a.shape.x, ny = a.shape.y;
  const auto fa = detail::half_spectrum(a, gpu);
  const auto fb = detail::half_spectrum(b, gpu);
  FrcCurve c;
  c.rings = static_cast<int>(std::min(nx, ny));
  c.pixel_size_A = pixel_size_A;
  const int shells = c.rings / 2 + 1;
  // Per block of rows: cross, |A|^2 and |B|^2 of every shell, added in block order below.
  std::vector<double> part(static_cast<std::size_t>(detail::kRingBlocks) * 3 * shells, 0.0);
  detail::for_each_ring_element(nx, ny, [&](int block, std::size_t i, double frequency, double weight) {
    const auto s = static_cast<long>(std::lround(frequency * c.rings));
    if (s >= shells) return; // corners beyond Nyquist of the shorter axis
    const std::complex<double> A(fa[i]), B(fb[i]);
    double* p = part.data() + static_cast<std::size_t>(block) * 3 * shells;
    p[s] += weight * (A * std::conj(B)).real();
    p[shells + s] += weight * std::norm(A);
    p[2 * shells + s] += weight * std::norm(B);
  });
  std::vector<double> cross(shells, 0.0), pa(shells, 0.0), pb(shells, 0.0);
  for (int k = 0; k < detail::kRingBlocks; ++k) {
    const double* p = part.data() + static_cast<std::size_t>(k) * 3 * shells;
    for (int s = 0; s < shells; ++s) {
      cross[s] += p[s];
      pa[s] += p[shells + s];
      pb[s] += p[2 * shells + s];
    }
  }
  c.frc.resize(shells);
  c.frequency.resize(shells);
  for (int s = 0; s < shells; ++s) {
    const double den = std::sqrt(pa[s] * pb[s]);
    c.frc[s] = den > 0 ? cross[s] / den : 0.0;
    c.frequency[s] = s / (c.rings * pixel_size_A);
  }
  return c;
}

double frc_resolution(const FrcCurve& curve, double threshold) {
  for (std::size_t s = 2; s < curve.frc.size(); ++s) {
    if (curve.frc[s] >= threshold) continue;
    const double hi = curve.frc[s - 1], lo = curve.frc[s];
    // Shell 1 may already be below: then the crossing is taken at shell 1.
    const double t = hi > lo ? std::clamp((hi - threshold) / (hi - lo), 0.0, 1.0) : 0.0;
    const double shell = static_cast<double>(s - 1) + t;
    return curve.rings * curve.pixel_size_A / shell;
  }
  if (curve.frc.size() > 1 && curve.frc[1] < threshold) return curve.rings * curve.pixel_size_A;
  return 2 * curve.pixel_size_A;
}

double half_sum_frc_resolution(View<const float> even_sum, View<const float> odd_sum, double pixel_size_A, int gpu) {
  return frc_resolution(fourier_ring_correlation(even_sum, odd_sum, pixel_size_A, gpu), 0.143);
}

} // namespace frost::session
