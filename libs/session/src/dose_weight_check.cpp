#include "frost/session/dose_weight_check.hpp"

#include <cmath>

#include "frost/core/error.hpp"
#include "frost/fft/half_spectrum.hpp"

namespace frost::session {

double high_frequency_power_ratio(const fft::ShellSums& weighted_and_unweighted) {
  const fft::ShellSums& s = weighted_and_unweighted;
  return s.band_b > 0 ? s.band_a / s.band_b : std::nan("");
}

double high_frequency_power_ratio(View<const float> weighted, View<const float> unweighted, double from_nyquist) {
  FROST_EXPECTS(weighted.shape.x == unweighted.shape.x && weighted.shape.y == unweighted.shape.y,
                "dose-weighting check: the two sums differ in size");
  const auto fw = fft::host_half_spectrum(weighted);
  const auto fu = fft::host_half_spectrum(unweighted);
  // Frequencies in cycles per pixel: Nyquist is 0.5 on each axis.
  return high_frequency_power_ratio(
      fft::shell_sums(fw.data(), fu.data(), weighted.shape.x, weighted.shape.y, {0.5 * from_nyquist, 0.5}));
}

} // namespace frost::session
