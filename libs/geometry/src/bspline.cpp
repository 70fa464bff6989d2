#include "frost/geometry/bspline.hpp"

#include <cmath>
#include <cstring>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"

namespace frost::geom {

namespace {

// Pole of the cubic B-spline prefilter: root of z² + 4z + 1 with |z| < 1.
const double kPole = std::sqrt(3.0) - 2.0;

/// Filters one line held in double precision (Unser 1999, Box 2, mirror boundaries).
void prefilter_line(std::vector<double>& c) {
  const index_t n = static_cast<index_t>(c.size());
  if (n < 2) return;
  const double z = kPole;
  for (double& v : c) v *= 6.0;  // (1 − z)(1 − 1/z) = 6

  // Causal start c⁺[0] = Σ_{k>=0} z^k s[−k] with the mirror extension (period 2n − 2).
  // The series is summed over one period and closed with 1/(1 − z^period); for long lines it
  // is cut where |z|^k is below double precision (|z|^28 < 1e-16) and the closing factor is 1.
  const index_t period = 2 * n - 2;
  const index_t horizon = 30;
  double c0 = 0.0;
  if (period <= horizon) {
    double zk = 1.0;
    for (index_t k = 0; k < period; ++k, zk *= z) c0 += zk * c[static_cast<std::size_t>(mirror_index(k, n))];
    c0 /= 1.0 - zk;  // zk = z^period here
  } else {
    double zk = 1.0;
    for (index_t k = 0; k < horizon; ++k, zk *= z) c0 += zk * c[static_cast<std::size_t>(mirror_index(k, n))];
  }
  c[0] = c0;
  for (index_t k = 1; k < n; ++k) c[static_cast<std::size_t>(k)] += z * c[static_cast<std::size_t>(k - 1)];

  // Anti-causal start for the mirror boundary, then c⁻[k] = z·(c⁻[k+1] − c⁺[k]).
  const std::size_t last = static_cast<std::size_t>(n - 1);
  c[last] = (z / (z * z - 1.0)) * (c[last] + z * c[last - 1]);
  for (index_t k = n - 2; k >= 0; --k) {
    const std::size_t i = static_cast<std::size_t>(k);
    c[i] = z * (c[i + 1] - c[i]);
  }
}

} // namespace

template <class T>
void bspline_prefilter_1d(T* data, index_t n, index_t stride) {
  std::vector<double> line(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) line[static_cast<std::size_t>(i)] = static_cast<double>(data[i * stride]);
  prefilter_line(line);
  for (index_t i = 0; i < n; ++i) data[i * stride] = static_cast<T>(line[static_cast<std::size_t>(i)]);
}

template <class T>
void bspline_prefilter_2d(View<T> img) {
  FROST_EXPECTS(img.shape.z == 1, "bspline_prefilter_2d: expects 2-D items, got " + to_string(img.shape));
  const index_t nx = img.shape.x, ny = img.shape.y, items = img.shape.n;
  // Rows (contiguous), then columns (stride nx); each pass is parallel over lines.
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t r = 0; r < ny * items; ++r) bspline_prefilter_1d(img.data + r * nx, nx, 1);
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t c = 0; c < nx * items; ++c) {
    const index_t item = c / nx, x = c % nx;
    bspline_prefilter_1d(img.data + item * nx * ny + x, ny, nx);
  }
}

template <class T>
Image<T> bspline_coefficients_2d(View<const T> img) {
  Image<T> out(img.shape);
  std::memcpy(static_cast<void*>(out.data()), img.data, static_cast<std::size_t>(img.shape.total()) * sizeof(T));
  bspline_prefilter_2d(out.view());
  return out;
}

template void bspline_prefilter_1d<float>(float*, index_t, index_t);
template void bspline_prefilter_1d<double>(double*, index_t, index_t);
template void bspline_prefilter_2d<float>(View<float>);
template void bspline_prefilter_2d<double>(View<double>);
template Image<float> bspline_coefficients_2d<float>(View<const float>);
template Image<double> bspline_coefficients_2d<double>(View<const double>);

} // namespace frost::geom
