#include "frost/session/dose_weight_check.hpp"

#include <cmath>

#include "fourier_rings.hpp"
#include "frost/core/error.hpp"

namespace frost::session {

double high_frequency_power_ratio(View<const float> weighted, View<const float> unweighted, double from_nyquist,
                                  int gpu) {
  FROST_EXPECTS(weighted.shape.x == unweighted.shape.x && weighted.shape.y == unweighted.shape.y,
                "dose-weighting check: the two sums differ in size");
  const auto fw = detail::half_spectrum(weighted, gpu);
  const auto fu = detail::half_spectrum(unweighted, gpu);
  // Frequencies in cycles per pixel: Nyquist is 0.5 on each axis.
  const double lo = 0.5 * from_nyquist;
  std::vector<double> pw_part(detail::kRingBlocks, 0.0), pu_part(detail::kRingBlocks, 0.0);
  detail::for_each_ring_element(weighted.shape.x, weighted.shape.y,
                                [&](int block, std::size_t i, double frequency, double weight) {
                                  if (frequency < lo || frequency > 0.5) return;
                                  pw_part[static_cast<std::size_t>(block)] += weight * std::norm(std::complex<double>(fw[i]));
                                  pu_part[static_cast<std::size_t>(block)] += weight * std::norm(std::complex<double>(fu[i]));
                                });
  double pw = 0, pu = 0;
  for (int b = 0; b < detail::kRingBlocks; ++b) {
    pw += pw_part[static_cast<std::size_t>(b)];
    pu += pu_part[static_cast<std::size_t>(b)];
  }
  return pu > 0 ? pw / pu : std::nan("");
}

} // namespace frost::session
