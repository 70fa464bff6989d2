#include "frost/motion/peak_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace frost::motion {

namespace {

// 3x3 centroid with weights value/max around the integer maximum (Xmipp GPU refineLocation<T,3>).
void centroid3(View<const float> map, index_t px, index_t py, float vmax, double* dx, double* dy) {
  double sw = 0, sx = 0, sy = 0;
  for (int oy = -1; oy <= 1; ++oy)
    for (int ox = -1; ox <= 1; ++ox) {
      const double w = map(periodic_index(px + ox, map.shape.x), periodic_index(py + oy, map.shape.y)) / static_cast<double>(vmax);
      sw += w;
      sx += w * ox;
      sy += w * oy;
    }
  *dx = sw != 0 ? sx / sw : 0.0;
  *dy = sw != 0 ? sy / sw : 0.0;
}

} // namespace

double refine_parabolic(double vm, double v0, double vp) {
  const double den = vm - 2.0 * v0 + vp;
  if (!(den < 0)) return 0.0; // flat or not a maximum
  return std::clamp(0.5 * (vm - vp) / den, -0.5, 0.5);
}

double refine_gauss3(double vm, double v0, double vp) {
  if (!(vm > 0 && v0 > 0 && vp > 0)) return refine_parabolic(vm, v0, vp);
  const double lm = std::log(vm), l0 = std::log(v0), lp = std::log(vp);
  const double den = lm - 2.0 * l0 + lp;
  if (!(den < 0)) return refine_parabolic(vm, v0, vp);
  return std::clamp(0.5 * (lm - lp) / den, -0.5, 0.5);
}

Peak find_peak(View<const float> map, double radius, SubpixelMethod method) {
  const index_t w = map.shape.x, h = map.shape.y, cx = w / 2, cy = h / 2;
  const index_t rx = std::min<index_t>(cx - 1, static_cast<index_t>(std::floor(radius)));
  const index_t ry = std::min<index_t>(cy - 1, static_cast<index_t>(std::floor(radius)));
  const double r2 = radius * radius;
  Peak p;
  float best = -std::numeric_limits<float>::infinity();
  for (index_t dy = -ry; dy <= ry; ++dy)
    for (index_t dx = -rx; dx <= rx; ++dx) {
      if (static_cast<double>(dx * dx + dy * dy) > r2) continue;
      const float v = map(cx + dx, cy + dy);
      if (v > best) {
        best = v;
        p.ix = static_cast<int>(dx);
        p.iy = static_cast<int>(dy);
      }
    }
  p.value = best;
  // On the disc boundary, or on the border of the map where the map clips the disc.
  p.edge = std::hypot(static_cast<double>(p.ix), static_cast<double>(p.iy)) > radius - 1.5 ||
           (rx < radius && std::abs(p.ix) == rx) || (ry < radius && std::abs(p.iy) == ry);

  const index_t px = cx + p.ix, py = cy + p.iy;
  double dx = 0, dy = 0;
  if (method == SubpixelMethod::Centroid3) {
    centroid3(map, px, py, best, &dx, &dy);
  } else {
    const double v0 = best;
    const double xm = map(periodic_index(px - 1, w), py), xp = map(periodic_index(px + 1, w), py);
    const double ym = map(px, periodic_index(py - 1, h)), yp = map(px, periodic_index(py + 1, h));
    if (method == SubpixelMethod::Gauss3 && xm > 0 && xp > 0 && ym > 0 && yp > 0 && v0 > 0) {
      dx = refine_gauss3(xm, v0, xp);
      dy = refine_gauss3(ym, v0, yp);
    } else { // the five values must all be positive for gauss3 (§5.4)
      dx = refine_parabolic(xm, v0, xp);
      dy = refine_parabolic(ym, v0, yp);
    }
  }
  p.x = p.ix + dx;
  p.y = p.iy + dy;
  return p;
}

} // namespace frost::motion
