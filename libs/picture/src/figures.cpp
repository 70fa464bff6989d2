#include "frost/picture/figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "frost/core/error.hpp"
#include "frost/picture/canvas.hpp"
#include "frost/picture/plot.hpp"
#include "frost/picture/tone.hpp"

namespace frost::picture {

namespace {

constexpr int kGap = 4;                             // between sections
constexpr int kLeft = 72, kRight = 16, kTop = 16, kBottom = 36; // plot margins (labels left and below)

/// Both ranges widened about their centres so that a data unit spans as many pixels on x as on y.
void equalise_scales(Range& x, Range& y, const PixelRect& area) {
  const double per_pixel = std::max(x.span() / (area.width - 1), y.span() / (area.height - 1));
  const double cx = 0.5 * (x.lo + x.hi), cy = 0.5 * (y.lo + y.hi);
  const double hx = 0.5 * per_pixel * (area.width - 1), hy = 0.5 * per_pixel * (area.height - 1);
  x = {cx - hx, cx + hx};
  y = {cy - hy, cy + hy};
}

/// Smallest positive distance between distinct values, or `fallback` when there is none.
double min_spacing(std::vector<double> v, double fallback) {
  std::sort(v.begin(), v.end());
  double best = fallback;
  for (std::size_t i = 1; i < v.size(); ++i)
    if (v[i] - v[i - 1] > 1e-6 * fallback) best = std::min(best, v[i] - v[i - 1]);
  return best;
}

void global_panel(Canvas& canvas, const DriftFigure& f, int left) {
  const PixelRect area{left + kLeft, kTop, f.panel - kLeft - kRight, f.panel - kTop - kBottom};
  Range xr = data_range(f.x, {}, 0.08), yr = data_range(f.y, {}, 0.08);
  // At least one pixel of shift on the axes: a still movie is not blown up to show rounding.
  for (Range* r : {&xr, &yr})
    if (r->span() < 1.0) *r = {0.5 * (r->lo + r->hi) - 0.5, 0.5 * (r->lo + r->hi) + 0.5};
  equalise_scales(xr, yr, area);
  PlotArea plot(canvas, area, xr, yr);
  plot.axes();
  plot.polyline(f.x, f.y, colours::kBlue, 2);
  for (std::size_t t = 0; t < f.x.size(); ++t) plot.marker(f.x[t], f.y[t], colours::kBlue, 2);
  plot.marker(f.x.front(), f.y.front(), colours::kGreen, 4);
  plot.marker(f.x.back(), f.y.back(), colours::kRed, 4);
}

void local_panel(Canvas& canvas, const DriftFigure& f, int left) {
  const int w = f.panel - kLeft - kRight, h = f.panel - kTop - kBottom;
  // The micrograph's aspect ratio inside the panel.
  const double aspect = f.width / f.height;
  const int aw = aspect >= static_cast<double>(w) / h ? w : std::max(2, static_cast<int>(std::lround(h * aspect)));
  const int ah = aspect >= static_cast<double>(w) / h ? std::max(2, static_cast<int>(std::lround(w / aspect))) : h;
  const PixelRect area{left + kLeft, kTop + (h - ah), aw, ah};
  PlotArea plot(canvas, area, {0, f.width}, {0, f.height});
  plot.axes(true, false, 4);

  std::vector<double> xs, ys;
  double largest = 0;
  for (const DriftTrack& t : f.local) {
    xs.push_back(t.x);
    ys.push_back(t.y);
    for (std::size_t k = 0; k < t.dx.size(); ++k) largest = std::max(largest, std::hypot(t.dx[k], t.dy[k]));
  }
  const double spacing = std::min(min_spacing(xs, f.width), min_spacing(ys, f.height));
  const double magnification = largest > 0 ? 0.45 * spacing / largest : 1.0;
  for (const DriftTrack& t : f.local) {
    std::vector<double> px(t.dx.size()), py(t.dy.size());
    for (std::size_t k = 0; k < t.dx.size(); ++k) {
      px[k] = t.x + magnification * t.dx[k];
      py[k] = t.y + magnification * t.dy[k];
    }
    plot.polyline(px, py, colours::kOrange, 2);
    plot.marker(t.x, t.y, colours::kBlack, 2);
    plot.marker(px.back(), py.back(), colours::kRed, 2);
  }
  char label[32];
  std::snprintf(label, sizeof label, "x%.3g", magnification);
  canvas.text(area.x + 4, area.y + 4, label, colours::kBlack, 2);
}

} // namespace

Raster central_sections(View<const float> volume, index_t max_side, index_t min_side) {
  const Shape s = volume.shape;
  if (s.n != 1 || s.z < 2) FROST_THROW(ExitCode::Runtime, "central_sections: expects one volume, got " + to_string(s));
  const index_t cx = s.x / 2, cy = s.y / 2, cz = s.z / 2;
  Image<float> xy(Shape::image(s.x, s.y)), xz(Shape::image(s.x, s.z)), yz(Shape::image(s.y, s.z));
  for (index_t y = 0; y < s.y; ++y)
    for (index_t x = 0; x < s.x; ++x) xy(x, y) = volume(x, y, cz);
  for (index_t z = 0; z < s.z; ++z)
    for (index_t x = 0; x < s.x; ++x) xz(x, z) = volume(x, cy, z);
  for (index_t z = 0; z < s.z; ++z)
    for (index_t y = 0; y < s.y; ++y) yz(y, z) = volume(cx, y, z);

  Image<float> all(Shape::image(xy.size() + xz.size() + yz.size(), 1));
  std::copy(yz.begin(), yz.end(), std::copy(xz.begin(), xz.end(), std::copy(xy.begin(), xy.end(), all.begin())));
  const Window window = percentile_window(all.cview());

  const index_t largest = std::max({s.x, s.y, s.z});
  const index_t factor = std::max<index_t>(1, (largest + max_side - 1) / std::max<index_t>(1, max_side));
  const index_t shrunk = (largest + factor - 1) / factor;
  const int magnification = static_cast<int>(std::max<index_t>(1, std::max(min_side, shrunk) / shrunk));
  std::vector<Raster> parts;
  for (const Image<float>* section : {&xy, &xz, &yz})
    parts.push_back(magnify(to_grey(shrink(section->cview(), factor).cview(), window), magnification));

  int width = 2 * kGap, height = 0;
  for (const Raster& p : parts) {
    width += p.width;
    height = std::max(height, p.height);
  }
  Raster out = Raster::grey(width, height, 255);
  int left = 0;
  for (const Raster& p : parts) {
    const int top = height - p.height; // bottom-aligned: the axes point up
    for (int y = 0; y < p.height; ++y) std::copy_n(p.at(0, y), p.width, out.at(left, top + y));
    left += p.width + kGap;
  }
  return out;
}

Raster fsc_figure(const FscFigure& f) {
  if (f.frequency.size() != f.fsc.size() || f.fsc.size() < 2)
    FROST_THROW(ExitCode::Runtime, "fsc_figure: " + std::to_string(f.frequency.size()) + " frequencies and " +
                                       std::to_string(f.fsc.size()) + " FSC values (need the same number, >= 2)");
  Canvas canvas(f.width, f.height);
  const PixelRect area{kLeft, kTop, f.width - kLeft - kRight, f.height - kTop - kBottom};
  double lowest = -0.1;
  for (double v : f.fsc)
    if (std::isfinite(v)) lowest = std::min(lowest, v);
  const double right = f.frequency.back() > 0 ? f.frequency.back() : 1.0;
  PlotArea plot(canvas, area, {0, right}, {lowest, 1.05});
  plot.axes();
  plot.horizontal_line(0, colours::kGrey, false);
  for (std::size_t i = 0; i < f.thresholds.size(); ++i)
    plot.horizontal_line(f.thresholds[i], i == 0 ? colours::kGrey : colours::kLightGrey, true);
  plot.polyline(f.frequency, f.fsc, colours::kBlue, 2);
  return canvas.raster();
}

Raster drift_figure(const DriftFigure& f) {
  if (f.x.size() != f.y.size() || f.x.size() < 2)
    FROST_THROW(ExitCode::Runtime, "drift_figure: need the same number (>= 2) of x and y shifts");
  for (const DriftTrack& t : f.local)
    if (t.dx.size() != f.x.size() || t.dy.size() != f.x.size())
      FROST_THROW(ExitCode::Runtime, "drift_figure: a local track has " + std::to_string(t.dx.size()) +
                                         " frames, the global trajectory " + std::to_string(f.x.size()));
  const bool local = !f.local.empty() && f.width > 0 && f.height > 0;
  Canvas canvas(local ? 2 * f.panel : f.panel, f.panel);
  global_panel(canvas, f, 0);
  if (local) local_panel(canvas, f, f.panel);
  return canvas.raster();
}

} // namespace frost::picture
