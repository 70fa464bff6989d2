#include "frost/session/half_sum_frc.hpp"

#include <algorithm>
#include <cmath>

#include "frost/core/error.hpp"
#include "frost/fft/half_spectrum.hpp"

namespace frost::session {

FrcCurve frc_from_shell_sums(const fft::ShellSums& sums, double pixel_size_A) {
  FrcCurve c;
  c.rings = sums.rings;
  c.pixel_size_A = pixel_size_A;
  const std::size_t shells = sums.cross.size();
  c.frc.resize(shells);
  c.frequency.resize(shells);
  for (std::size_t s = 0; s < shells; ++s) {
    const double den = std::sqrt(sums.power_a[s] * sums.power_b[s]);
    c.frc[s] = den > 0 ? sums.cross[s] / den : 0.0;
    c.frequency[s] = static_cast<double>(s) / (c.rings * pixel_size_A);
  }
  return c;
}

FrcCurve fourier_ring_correlation(View<const float> a, View<const float> b, double pixel_size_A) {
  FROST_EXPECTS(a.shape.x == b.shape.x && a.shape.y == b.shape.y, "FRC: the two images differ in size");
  FROST_EXPECTS(a.shape.x >= 8 && a.shape.y >= 8, "FRC: images smaller than 8 x 8");
  const auto fa = fft::host_half_spectrum(a);
  const auto fb = fft::host_half_spectrum(b);
  return frc_from_shell_sums(fft::shell_sums(fa.data(), fb.data(), a.shape.x, a.shape.y), pixel_size_A);
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
