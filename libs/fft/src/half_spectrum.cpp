#include "frost/fft/half_spectrum.hpp"

#include "frost/fft/fft.hpp"

namespace frost::fft {

std::vector<std::complex<float>> host_half_spectrum(View<const float> image) {
  const index_t nx = image.shape.x, ny = image.shape.y;
  std::vector<std::complex<float>> out(static_cast<std::size_t>((nx / 2 + 1) * ny));
  // The first plane of a view is nx*ny floats in a row, as the plan wants them: no copy.
  const auto plan = shared_planner(Backend::Cpu)->plan(FftSpec::r2c(Shape::image(nx, ny)));
  plan.execute(image.data, out.data()); // out of place: the input is not written
  return out;
}

} // namespace frost::fft
