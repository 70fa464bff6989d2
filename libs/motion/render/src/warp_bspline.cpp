// Cubic B-spline warp (§7.1 bspline3): prefilter once per frame, then evaluate the spline at
// x − s(x) with positions outside the frame reflected back into it.
#include <cmath>
#include <vector>

#include "frost/core/threads.hpp"
#include "frost/geometry/bspline.hpp"
#include "warp_methods.hpp"

namespace frost::motion::detail {

namespace {

/// Whole-sample mirror of a continuous coordinate into [0, n − 1] (reflection about the first
/// and last pixel centres, period 2n − 2). The prefilter's mirror boundary makes the spline
/// symmetric about the same points, so this equals evaluating the mirrored spline.
double mirror_coordinate(double u, index_t n) {
  if (n == 1) return 0.0;
  const double last = static_cast<double>(n - 1);
  if (u >= 0.0 && u <= last) return u;
  const double period = 2.0 * last;
  u = std::fmod(u, period);
  if (u < 0.0) u += period;
  return u <= last ? u : period - u;
}

/// The four coefficient indices (mirrored only near the edges) and weights of a sample at u.
struct Taps {
  index_t index[4];
  double weight[4];
};

Taps taps_at(double u, index_t n) {
  u = mirror_coordinate(u, n);
  const double f = std::floor(u);
  Taps t;
  geom::cubic_bspline_weights(u - f, t.weight);
  const index_t first = static_cast<index_t>(f) - 1;
  const bool inside = first >= 0 && first + 3 < n;
  for (int i = 0; i < 4; ++i) t.index[i] = inside ? first + i : geom::mirror_index(first + i, n);
  return t;
}

/// Constant shift: the spline is separable and its taps are the same along a column (and
/// along a row), so it is evaluated in two 4-tap passes: along x into every coefficient row,
/// then along y. Taps are tabulated once per column and once per row.
void warp_constant(View<const float> coeffs, Vec2 s, View<float> out) {
  const index_t nx = out.shape.x, ny = out.shape.y;
  std::vector<Taps> columns(static_cast<std::size_t>(nx)), rows(static_cast<std::size_t>(ny));
  for (index_t x = 0; x < nx; ++x) columns[static_cast<std::size_t>(x)] = taps_at(static_cast<double>(x) - s.x, nx);
  for (index_t y = 0; y < ny; ++y) rows[static_cast<std::size_t>(y)] = taps_at(static_cast<double>(y) - s.y, ny);
  Image<float> along_x(out.shape);
#pragma omp parallel num_threads(num_threads())
  {
#pragma omp for schedule(static)
    for (index_t y = 0; y < ny; ++y) {
      const float* src = coeffs.data + y * nx;
      float* dst = along_x.data() + y * nx;
      for (index_t x = 0; x < nx; ++x) {
        const Taps& t = columns[static_cast<std::size_t>(x)];
        double v = 0.0;
        for (int i = 0; i < 4; ++i) v += t.weight[i] * static_cast<double>(src[t.index[i]]);
        dst[x] = static_cast<float>(v);
      }
    }
#pragma omp for schedule(static)
    for (index_t y = 0; y < ny; ++y) {
      const Taps& t = rows[static_cast<std::size_t>(y)];
      const float* r0 = along_x.data() + t.index[0] * nx;
      const float* r1 = along_x.data() + t.index[1] * nx;
      const float* r2 = along_x.data() + t.index[2] * nx;
      const float* r3 = along_x.data() + t.index[3] * nx;
      const double w0 = t.weight[0], w1 = t.weight[1], w2 = t.weight[2], w3 = t.weight[3];
      float* dst = out.data + y * nx;
      for (index_t x = 0; x < nx; ++x)
        dst[x] = static_cast<float>(w0 * r0[x] + w1 * r1[x] + w2 * r2[x] + w3 * r3[x]);
    }
  }
}

/// Shift varying over the frame: taps per pixel, all 16 products.
void warp_field(View<const float> coeffs, const FrameShift& shift, View<float> out) {
  const index_t nx = out.shape.x, ny = out.shape.y;
#pragma omp parallel num_threads(num_threads())
  {
    std::vector<double> sx(static_cast<std::size_t>(nx)), sy(static_cast<std::size_t>(nx));
#pragma omp for schedule(static)
    for (index_t y = 0; y < ny; ++y) {
      shift.row(y, nx, sx.data(), sy.data());
      float* dst = out.data + y * nx;
      for (index_t x = 0; x < nx; ++x) {
        const Taps tx = taps_at(static_cast<double>(x) - sx[static_cast<std::size_t>(x)], nx);
        const Taps ty = taps_at(static_cast<double>(y) - sy[static_cast<std::size_t>(x)], ny);
        double acc = 0.0;
        for (int j = 0; j < 4; ++j) {
          const float* line = coeffs.data + ty.index[j] * nx;
          double r = 0.0;
          for (int i = 0; i < 4; ++i) r += tx.weight[i] * static_cast<double>(line[tx.index[i]]);
          acc += ty.weight[j] * r;
        }
        dst[x] = static_cast<float>(acc);
      }
    }
  }
}

} // namespace

void warp_bspline(View<const float> frame, const FrameShift& shift, View<float> out) {
  const Image<float> coeffs = geom::bspline_coefficients_2d(frame);
  if (shift.is_constant())
    warp_constant(coeffs.cview(), shift.constant_shift(), out);
  else
    warp_field(coeffs.cview(), shift, out);
}

} // namespace frost::motion::detail
