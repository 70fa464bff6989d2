#include "frost/motion/peak_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "frost/motion/correlation_math.hpp"

namespace frost::motion {

namespace {

// 3x3 centroid with weights value/max around the integer maximum (Xmipp GPU refineLocation<T,3>).
void centroid3(const PeakWindow& w, double* dx, double* dy) {
  double sw = 0, sx = 0, sy = 0;
  for (int oy = -1; oy <= 1; ++oy)
    for (int ox = -1; ox <= 1; ++ox) {
      const double v = w.v[(oy + 1) * 3 + (ox + 1)] / static_cast<double>(w.value);
      sw += v;
      sx += v * ox;
      sy += v * oy;
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

Peak refine_peak(const PeakWindow& window, double radius, index_t width, index_t height, SubpixelMethod method) {
  const index_t rx = search_extent(radius, width), ry = search_extent(radius, height);
  Peak p;
  p.ix = window.ix;
  p.iy = window.iy;
  p.value = window.value;
  // On the disc boundary, or on the border of the map where the map clips the disc.
  p.edge = std::hypot(static_cast<double>(p.ix), static_cast<double>(p.iy)) > radius - 1.5 ||
           (rx < radius && std::abs(p.ix) == rx) || (ry < radius && std::abs(p.iy) == ry);
  double dx = 0, dy = 0;
  if (method == SubpixelMethod::Centroid3) {
    centroid3(window, &dx, &dy);
  } else {
    const double v0 = window.value;
    const double xm = window.v[3], xp = window.v[5], ym = window.v[1], yp = window.v[7];
    if (method == SubpixelMethod::Gauss3 && xm > 0 && xp > 0 && ym > 0 && yp > 0 && v0 > 0) {
      dx = refine_gauss3(xm, v0, xp);
      dy = refine_gauss3(ym, v0, yp);
    } else { // the five values must all be positive for gauss3
      dx = refine_parabolic(xm, v0, xp);
      dy = refine_parabolic(ym, v0, yp);
    }
  }
  p.x = p.ix + dx;
  p.y = p.iy + dy;
  return p;
}

Peak find_peak(View<const float> map, double radius, SubpixelMethod method) {
  const index_t w = map.shape.x, h = map.shape.y, cx = w / 2, cy = h / 2;
  const index_t rx = search_extent(radius, w), ry = search_extent(radius, h);
  PeakWindow win;
  float best = -std::numeric_limits<float>::infinity();
  for (index_t dy = -ry; dy <= ry; ++dy)
    for (index_t dx = -rx; dx <= rx; ++dx) {
      if (!in_search_disc(dx, dy, radius)) continue;
      const float v = map(cx + dx, cy + dy);
      if (v > best) {
        best = v;
        win.ix = static_cast<int>(dx);
        win.iy = static_cast<int>(dy);
      }
    }
  win.value = best;
  const index_t px = cx + win.ix, py = cy + win.iy;
  for (int oy = -1; oy <= 1; ++oy)
    for (int ox = -1; ox <= 1; ++ox)
      win.v[(oy + 1) * 3 + (ox + 1)] = map(periodic_index(px + ox, w), periodic_index(py + oy, h));
  return refine_peak(win, radius, w, h, method);
}

} // namespace frost::motion
