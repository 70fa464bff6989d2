#include "fourier_rings.hpp"

#include <cmath>

#include "frost/fft/fft.hpp"

namespace frost::session::detail {

std::vector<std::complex<float>> half_spectrum(View<const float> image) {
  const index_t nx = image.shape.x, ny = image.shape.y;
  // A dense copy of the first plane: the plan wants x*y floats in a row.
  std::vector<float> plane(static_cast<std::size_t>(nx * ny));
  for (index_t y = 0; y < ny; ++y)
    for (index_t x = 0; x < nx; ++x) plane[static_cast<std::size_t>(y * nx + x)] = image(x, y);
  std::vector<std::complex<float>> out(static_cast<std::size_t>((nx / 2 + 1) * ny));
  const auto plan = fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::r2c(Shape::image(nx, ny)));
  plan.execute(plane.data(), out.data());
  return out;
}

} // namespace frost::session::detail
