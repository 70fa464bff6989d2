#include "render_test_images.hpp"

#include <cmath>
#include <random>

#include "frost/fft/fft.hpp"
#include "frost/geometry/fourier_shift.hpp"

namespace frost::motion::test_images {

Image<float> band_limited_noise(index_t nx, index_t ny, double kmax, std::uint32_t seed) {
  const Shape shape = Shape::image(nx, ny);
  Image<float> img(shape);
  std::mt19937 rng(seed);
  std::normal_distribution<float> gauss(0.f, 1.f);
  for (float& v : img) v = gauss(rng);
  auto planner = fft::shared_planner(fft::Backend::Cpu);
  Image<fft::Complex> spectrum(shape.half_spectrum());
  planner->plan(fft::FftSpec::r2c(shape)).execute(img.cview(), spectrum.view());
  for (index_t jy = 0; jy < ny; ++jy)
    for (index_t jx = 0; jx <= nx / 2; ++jx) {
      const double fx = static_cast<double>(jx) / static_cast<double>(nx);
      const double fy = static_cast<double>(geom::fft_frequency(jy, ny)) / static_cast<double>(ny);
      if (!(std::sqrt(fx * fx + fy * fy) < kmax)) spectrum(jx, jy) = 0;
    }
  spectrum(0, 0) = 0;
  planner->plan(fft::FftSpec::c2r(shape)).execute(spectrum.view(), img.view());
  double sum2 = 0;
  for (float v : img) sum2 += static_cast<double>(v) * v;
  const float inv_sd = static_cast<float>(1.0 / std::sqrt(sum2 / static_cast<double>(img.size())));
  for (float& v : img) v *= inv_sd;
  return img;
}

Image<float> fourier_shifted(View<const float> image, double sx, double sy) {
  const Shape shape = Shape::image(image.shape.x, image.shape.y);
  auto planner = fft::shared_planner(fft::Backend::Cpu);
  Image<fft::Complex> spectrum(shape.half_spectrum());
  planner->plan(fft::FftSpec::r2c(shape)).execute(image, spectrum.view());
  geom::shift_spectrum(spectrum.view(), shape, sx, sy);
  Image<float> out(shape);
  planner->plan(fft::FftSpec::c2r(shape)).execute(spectrum.view(), out.view());
  const float inv_n = 1.f / static_cast<float>(shape.total());
  for (float& v : out) v *= inv_n;
  return out;
}

double interior_relative_rms(View<const float> a, View<const float> ref, index_t margin) {
  double num = 0, den = 0;
  for (index_t y = margin; y < ref.shape.y - margin; ++y)
    for (index_t x = margin; x < ref.shape.x - margin; ++x) {
      const double d = static_cast<double>(a(x, y)) - ref(x, y);
      num += d * d;
      den += static_cast<double>(ref(x, y)) * ref(x, y);
    }
  return std::sqrt(num / den);
}

} // namespace frost::motion::test_images
