#include "fourier_rings.hpp"

#include <cmath>

#include "frost/fft/fft.hpp"

namespace frost::session::detail {

std::vector<std::complex<float>> half_spectrum(View<const float> image, int gpu) {
  const index_t nx = image.shape.x, ny = image.shape.y;
  std::vector<std::complex<float>> out(static_cast<std::size_t>((nx / 2 + 1) * ny));
  const fft::FftSpec spec = fft::FftSpec::r2c(Shape::image(nx, ny));
  if (gpu < 0) {
    // The first plane of a view is nx*ny floats in a row, as the plan wants them: no copy.
    const auto plan = fft::shared_planner(fft::Backend::Cpu)->plan(spec);
    plan.execute(image.data, out.data()); // out of place: the input is not written
    return out;
  }
  // On a GPU the host keeps only the shell sums' work: a write-behind thread then leaves the CPU
  // cores to the next movie's decoding.
  const auto planner = fft::shared_planner(fft::Backend::Cuda, gpu);
  const auto plan = planner->plan(spec);
  const std::size_t in_bytes = static_cast<std::size_t>(nx * ny) * sizeof(float);
  const std::size_t out_bytes = out.size() * sizeof(std::complex<float>);
  fft::FftBuffer in = planner->allocate(in_bytes), spectrum = planner->allocate(out_bytes);
  in.upload(image.data, in_bytes);
  plan.execute(in.data(), spectrum.data());
  spectrum.download(out.data(), out_bytes); // waits for the transform
  return out;
}

} // namespace frost::session::detail
