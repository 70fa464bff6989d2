#include "frost/motion/sum_quality.hpp"

#include <cmath>

#include "frost/core/error.hpp"
#include "frost/fft/half_spectrum.hpp"

namespace frost::motion {

fft::ShellSums weighting_check_sums(fft::ShellSums sums, int count) {
  FROST_EXPECTS(count >= 1, "weighting_check_sums: needs at least one frame");
  const double scale = 1.0 / std::sqrt(static_cast<double>(count));
  for (double& v : sums.cross) v *= scale;
  for (double& v : sums.power_b) v *= scale * scale;
  sums.band_b *= scale * scale;
  return sums;
}

SumQuality sum_quality(View<const float> even, View<const float> odd, View<const float> weighted,
                       View<const float> aligned, int count) {
  const index_t nx = even.shape.x, ny = even.shape.y;
  FROST_EXPECTS(odd.shape.x == nx && odd.shape.y == ny, "sum_quality: the half sums differ in size");
  SumQuality q;
  {
    const auto fe = fft::host_half_spectrum(even), fo = fft::host_half_spectrum(odd);
    q.halves = fft::shell_sums(fe.data(), fo.data(), nx, ny, kWeightingBand);
  }
  if (weighted.data != nullptr) {
    FROST_EXPECTS(aligned.data != nullptr && aligned.shape.x == nx && aligned.shape.y == ny &&
                      weighted.shape.x == nx && weighted.shape.y == ny && count >= 1,
                  "sum_quality: the weighting check needs the weighted and the aligned sum of one size");
    const auto fw = fft::host_half_spectrum(weighted), fa = fft::host_half_spectrum(aligned);
    q.weighting = weighting_check_sums(fft::shell_sums(fw.data(), fa.data(), nx, ny, kWeightingBand), count);
  }
  return q;
}

} // namespace frost::motion
