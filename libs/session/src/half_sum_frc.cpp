#include "frost/session/half_sum_frc.hpp"

#include <algorithm>
#include <cmath>

#include "fourier_rings.hpp"
#include "frost/core/error.hpp"

namespace frost::session {

FrcCurve fourier_ring_correlation(View<const float> a, View<const float> b, double pixel_size_A) {
  FROST_EXPECTS(a.shape.x == b.shape.x && a.shape.y == b.shape.y, "FRC: the two images differ in size");
  FROST_EXPECTS(a.shape.x >= 8 && a.shape.y >= 8, "FRC: images smaller than 8 x 8");
  const index_t nx = a.shape.x, ny = a.shape.y;
  const auto fa = detail::half_spectrum(a);
  const auto fb = detail::half_spectrum(b);
  const detail::RingGeometry g = detail::ring_geometry(nx, ny);
  FrcCurve c;
  c.rings = static_cast<int>(std::min(nx, ny));
  c.pixel_size_A = pixel_size_A;
  const int shells = c.rings / 2 + 1;
  std::vector<double> cross(shells, 0.0), pa(shells, 0.0), pb(shells, 0.0);
  for (std::size_t i = 0; i < fa.size(); ++i) {
    const auto s = static_cast<long>(std::lround(g.frequency[i] * c.rings));
    if (s >= shells) continue; // corners beyond Nyquist of the shorter axis
    const std::complex<double> A(fa[i]), B(fb[i]);
    cross[s] += g.weight[i] * (A * std::conj(B)).real();
    pa[s] += g.weight[i] * std::norm(A);
    pb[s] += g.weight[i] * std::norm(B);
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

double half_sum_frc_resolution(View<const float> even_sum, View<const float> odd_sum, double pixel_size_A) {
  return frc_resolution(fourier_ring_correlation(even_sum, odd_sum, pixel_size_A), 0.143);
}

} // namespace frost::session
