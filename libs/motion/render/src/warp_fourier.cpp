// Fourier warp (`fourier` in docs/movie_align.md#warping-a-frame): the exact shift of the periodic
// band-limited interpolant, r2c -> phase ramp -> c2r, normalised by 1/(nx·ny).
#include "frost/fft/fft.hpp"
#include "frost/geometry/fourier_shift.hpp"
#include "warp_methods.hpp"

namespace frost::motion::detail {

void warp_fourier(View<const float> frame, Vec2 shift, View<float> out) {
  const Shape shape = Shape::image(frame.shape.x, frame.shape.y);
  auto planner = fft::shared_planner(fft::Backend::Cpu);
  const fft::FftSpec forward = fft::FftSpec::r2c(shape);
  Image<fft::Complex> spectrum(shape.half_spectrum());
  planner->plan(forward).execute(frame, spectrum.view());
  // A(x) = F(x − s): the content moves by +s, which is shift_spectrum's convention.
  geom::shift_spectrum(spectrum.view(), shape, shift.x, shift.y);
  planner->plan(forward.inverse()).execute(spectrum.view(), out);
  fft::scale(out.data, static_cast<std::size_t>(shape.total()), static_cast<float>(fft::inverse_scale(forward)));
}

} // namespace frost::motion::detail
