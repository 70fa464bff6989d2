// MotionModel queries (docs/movie_align.md#the-b-spline-motion-model and #querying-the-motion): global
// part interpolated in time, local field added (residual) or used alone (total), raw-pixel wrapper.
#include <cmath>

#include "frost/motion/motion_model.hpp"

namespace frost::motion {

Vec2 MotionModel::global_shift(double t) const {
  if (global.empty()) return {};
  const int last = static_cast<int>(global.size()) - 1;
  if (!(t > 0)) return global.front(); // also NaN
  if (t >= last) return global.back();
  const int i = static_cast<int>(std::floor(t));
  const double f = t - i;
  const Vec2& a = global[static_cast<std::size_t>(i)];
  const Vec2& b = global[static_cast<std::size_t>(i + 1)];
  return {a.x + f * (b.x - a.x), a.y + f * (b.y - a.y)};
}

Vec2 MotionModel::shift(double x, double y, double t) const {
  if (!local) return global_shift(t);
  const Vec2 field = local->evaluate(x, y, t);
  if (kind == LocalModelKind::Total) return field;
  const Vec2 g = global_shift(t);
  return {g.x + field.x, g.y + field.y};
}

Vec2 MotionModel::shift_raw(double x_raw, double y_raw, double t) const {
  const Vec2 s = shift(x_raw / binning, y_raw / binning, t);
  return {s.x * binning, s.y * binning};
}

} // namespace frost::motion
