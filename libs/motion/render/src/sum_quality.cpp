#include "frost/motion/sum_quality.hpp"

#include <complex>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/fft/fft.hpp"

namespace frost::motion {

namespace {

std::vector<std::complex<float>> half_spectrum(View<const float> image) {
  const index_t nx = image.shape.x, ny = image.shape.y;
  std::vector<std::complex<float>> out(static_cast<std::size_t>((nx / 2 + 1) * ny));
  const auto plan = fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::r2c(Shape::image(nx, ny)));
  plan.execute(image.data, out.data()); // out of place: the image is not written
  return out;
}

} // namespace

void scale_shell_b(fft::ShellSums& sums, double scale) {
  for (double& v : sums.cross) v *= scale;
  for (double& v : sums.power_b) v *= scale * scale;
  sums.band_b *= scale * scale;
}

SumQuality sum_quality(View<const float> even, View<const float> odd, View<const float> weighted,
                       View<const float> aligned, int count) {
  const index_t nx = even.shape.x, ny = even.shape.y;
  FROST_EXPECTS(odd.shape.x == nx && odd.shape.y == ny, "sum_quality: the half sums differ in size");
  SumQuality q;
  {
    const auto fe = half_spectrum(even), fo = half_spectrum(odd);
    q.halves = fft::shell_sums(fe.data(), fo.data(), nx, ny, kWeightingBand);
  }
  if (weighted.data != nullptr) {
    FROST_EXPECTS(aligned.data != nullptr && aligned.shape.x == nx && aligned.shape.y == ny &&
                      weighted.shape.x == nx && weighted.shape.y == ny && count >= 1,
                  "sum_quality: the weighting check needs the weighted and the aligned sum of one size");
    const auto fw = half_spectrum(weighted), fa = half_spectrum(aligned);
    q.weighting = fft::shell_sums(fw.data(), fa.data(), nx, ny, kWeightingBand);
    scale_shell_b(*q.weighting, weighting_reference_scale(count));
  }
  return q;
}

} // namespace frost::motion
