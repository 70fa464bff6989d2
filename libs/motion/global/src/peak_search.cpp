#include "frost/motion/peak_search.hpp"

#include <cmath>
#include <limits>

#include "frost/motion/correlation_math.hpp"

namespace frost::motion {

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
  const auto at = [&window](int ox, int oy) { return static_cast<double>(window.v[(oy + 1) * 3 + (ox + 1)]); };
  geom::refine_peak_2d(at, static_cast<double>(window.value), method, dx, dy);
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
