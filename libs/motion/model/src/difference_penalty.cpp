// Assembly of D^T D for first/second differences along one axis of the coefficient grid (the
// ridge of docs/movie_align.md#fitting-the-coefficients and the fallback for axes the data cannot determine).
#include "difference_penalty.hpp"

namespace frost::motion::detail {

void add_difference_penalty(SymmetricBand& matrix, const BSplineField& g, Axis axis, int order,
                            double scale) {
  static const double kFirst[] = {-1.0, 1.0};
  static const double kSecond[] = {1.0, -2.0, 1.0};
  const double* stencil = order == 1 ? kFirst : kSecond;
  const int width = order + 1;
  const int along = axis == Axis::X ? g.lx : axis == Axis::Y ? g.ly : g.lt;
  const int stride = axis == Axis::X ? 1 : axis == Axis::Y ? g.lx : g.lx * g.ly;
  for (int n = -1; n <= g.lt - 2; ++n)
    for (int m = -1; m <= g.ly - 2; ++m)
      for (int l = -1; l <= g.lx - 2; ++l) {
        // One difference per grid point whose stencil fits on the axis, starting at that point.
        const int position = axis == Axis::X ? l + 1 : axis == Axis::Y ? m + 1 : n + 1;
        if (position + width > along) continue;
        const int base = g.index(n, m, l);
        for (int a = 0; a < width; ++a) // b <= a: the band stores each symmetric pair once
          for (int b = 0; b <= a; ++b)
            matrix.add(base + a * stride, base + b * stride, scale * stencil[a] * stencil[b]);
      }
}

} // namespace frost::motion::detail
