#include "frost/session/dose_weight_check.hpp"

#include <cmath>

#include "fourier_rings.hpp"
#include "frost/core/error.hpp"

namespace frost::session {

double high_frequency_power_ratio(View<const float> weighted, View<const float> unweighted, double from_nyquist) {
  FROST_EXPECTS(weighted.shape.x == unweighted.shape.x && weighted.shape.y == unweighted.shape.y,
                "dose-weighting check: the two sums differ in size");
  const auto fw = detail::half_spectrum(weighted);
  const auto fu = detail::half_spectrum(unweighted);
  const detail::RingGeometry g = detail::ring_geometry(weighted.shape.x, weighted.shape.y);
  // Frequencies in cycles per pixel: Nyquist is 0.5 on each axis.
  const double lo = 0.5 * from_nyquist;
  double pw = 0, pu = 0;
  for (std::size_t i = 0; i < fw.size(); ++i) {
    if (g.frequency[i] < lo || g.frequency[i] > 0.5) continue;
    pw += g.weight[i] * std::norm(std::complex<double>(fw[i]));
    pu += g.weight[i] * std::norm(std::complex<double>(fu[i]));
  }
  return pu > 0 ? pw / pu : std::nan("");
}

} // namespace frost::session
