#include "frost/geometry/fourier_shift.hpp"

#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"

namespace frost::geom {

namespace {
// The phase is separable, exp(−2πi(fx·sx + fy·sy + fz·sz)) = ex·ey·ez, so the loop needs only
// nx/2+1 + ny + nz trigonometric evaluations (in double, whatever T is).
std::vector<std::complex<double>> axis_factors(index_t count, index_t n, double s) {
  std::vector<std::complex<double>> f(static_cast<std::size_t>(count));
  for (index_t j = 0; j < count; ++j) {
    double re = 1.0, im = 0.0;
    rotate_phase(re, im, shift_phase<double>(j, 0, 0, n, 1, 1, s, 0.0, 0.0));
    f[static_cast<std::size_t>(j)] = {re, im};
  }
  return f;
}
} // namespace

template <class T>
void shift_spectrum(View<std::complex<T>> spectrum, Shape real_shape, double sx, double sy, double sz) {
  const Shape h = real_shape.half_spectrum();
  FROST_EXPECTS(spectrum.shape.x == h.x && spectrum.shape.y == h.y && spectrum.shape.z == h.z,
                "shift_spectrum: spectrum shape " + to_string(spectrum.shape) + " is not the half spectrum of " +
                    to_string(real_shape));
  if (real_shape.z == 1) sz = 0.0;
  const auto ex = axis_factors(h.x, real_shape.x, sx);
  const auto ey = axis_factors(h.y, real_shape.y, sy);
  const auto ez = axis_factors(h.z, real_shape.z, sz);
  const index_t rows = spectrum.shape.y * spectrum.shape.z * spectrum.shape.n;
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t row = 0; row < rows; ++row) {
    const index_t jy = row % h.y;
    const index_t jz = (row / h.y) % h.z;
    const std::complex<double> eyz = ey[static_cast<std::size_t>(jy)] * ez[static_cast<std::size_t>(jz)];
    std::complex<T>* p = spectrum.data + row * h.x;
    for (index_t jx = 0; jx < h.x; ++jx) {
      const std::complex<double> f = ex[static_cast<std::size_t>(jx)] * eyz;
      p[jx] *= std::complex<T>(static_cast<T>(f.real()), static_cast<T>(f.imag()));
    }
  }
}

template void shift_spectrum<float>(View<std::complex<float>>, Shape, double, double, double);
template void shift_spectrum<double>(View<std::complex<double>>, Shape, double, double, double);

} // namespace frost::geom
