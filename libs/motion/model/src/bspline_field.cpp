// BSplineField (docs/movie_align.md#the-b-spline-motion-model): knot spacings from the extents and
// the evaluation of the 4x4x4 non-zero terms.
#include <cmath>
#include <string>

#include "bspline_support.hpp"
#include "frost/core/error.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::motion {

namespace {

/// Xmipp's rule: extent/(L-3), the full extent when L = 3 (the basis is then incomplete).
double knot_spacing(int count, double extent) { return count == 3 ? extent : extent / (count - 3); }

void check_axis(const char* axis, int count, double extent) {
  if (count < 3)
    throw_usage_error(std::string("B-spline control points along ") + axis + " must be >= 3 (got " +
                      std::to_string(count) + ")");
  if (!(extent > 0) || !std::isfinite(extent))
    throw_usage_error(std::string("B-spline extent along ") + axis + " must be positive (got " +
                      std::to_string(extent) + ")");
}

} // namespace

BSplineField BSplineField::make(int lx, int ly, int lt, double width, double height, double frames) {
  check_axis("x", lx, width);
  check_axis("y", ly, height);
  check_axis("t", lt, frames);
  BSplineField f;
  f.lx = lx;
  f.ly = ly;
  f.lt = lt;
  f.hx = knot_spacing(lx, width);
  f.hy = knot_spacing(ly, height);
  f.ht = knot_spacing(lt, frames);
  f.cx.assign(static_cast<std::size_t>(f.size()), 0.0);
  f.cy.assign(static_cast<std::size_t>(f.size()), 0.0);
  return f;
}

Vec2 BSplineField::evaluate(double x, double y, double t) const {
  const AxisTerms ax = axis_terms(x / hx, lx);
  const AxisTerms ay = axis_terms(y / hy, ly);
  const AxisTerms at = axis_terms(t / ht, lt);
  double sx = 0, sy = 0;
  for (int a = 0; a < at.count; ++a) {
    for (int b = 0; b < ay.count; ++b) {
      const double wty = at.weight[a] * ay.weight[b];
      const auto row = static_cast<std::size_t>(index(at.first + a, ay.first + b, ax.first));
      for (int c = 0; c < ax.count; ++c) {
        const double w = wty * ax.weight[c];
        sx += w * cx[row + static_cast<std::size_t>(c)];
        sy += w * cy[row + static_cast<std::size_t>(c)];
      }
    }
  }
  return {sx, sy};
}

} // namespace frost::motion
