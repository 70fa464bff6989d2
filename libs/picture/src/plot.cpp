#include "frost/picture/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "frost/core/error.hpp"

namespace frost::picture {

namespace {

double tick_step(Range r, int max_ticks) {
  const double raw = r.span() / std::max(1, max_ticks);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    const double step = m * magnitude;
    const double count = std::floor(r.hi / step + 1e-9) - std::ceil(r.lo / step - 1e-9) + 1;
    if (count <= max_ticks) return step;
  }
  return 10.0 * magnitude;
}

} // namespace

std::vector<double> nice_ticks(Range r, int max_ticks) {
  if (!(r.span() > 0) || !std::isfinite(r.span())) return {r.lo};
  const double step = tick_step(r, max_ticks);
  std::vector<double> ticks;
  for (double k = std::ceil(r.lo / step - 1e-9); k <= std::floor(r.hi / step + 1e-9); k += 1) {
    const double v = k * step;
    ticks.push_back(std::abs(v) < 1e-9 * step ? 0.0 : v);
  }
  return ticks;
}

std::string tick_label(double value, double step) {
  const int decimals = step > 0 ? std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9))) : 0;
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", std::min(decimals, 6), value);
  std::string s = text;
  if (s.size() > 7) {
    std::snprintf(text, sizeof text, "%.2g", value);
    s = text;
  }
  if (s.find_first_not_of("-0.") == std::string::npos) s = "0"; // "-0", "-0.00"
  return s;
}

Range data_range(const std::vector<double>& a, const std::vector<double>& b, double margin) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto* values : {&a, &b})
    for (double v : *values)
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  if (lo > hi) return {0, 1};
  if (hi == lo) {
    const double half = std::max(1.0, std::abs(lo)) * margin * 10;
    return {lo - half, hi + half};
  }
  const double pad = (hi - lo) * margin;
  return {lo - pad, hi + pad};
}

PlotArea::PlotArea(Canvas& canvas, PixelRect area, Range x, Range y) : canvas_(canvas), area_(area), x_(x), y_(y) {
  if (area.width < 2 || area.height < 2)
    FROST_THROW(ExitCode::Runtime, "plot area of " + std::to_string(area.width) + "x" + std::to_string(area.height) +
                                       " pixels");
  if (!(x.span() > 0) || !(y.span() > 0) || !std::isfinite(x.span()) || !std::isfinite(y.span()))
    FROST_THROW(ExitCode::Runtime, "plot range of zero or non-finite span");
}

double PlotArea::px(double x) const { return area_.x + (x - x_.lo) / x_.span() * (area_.width - 1); }

double PlotArea::py(double y) const {
  return area_.y + (area_.height - 1) - (y - y_.lo) / y_.span() * (area_.height - 1);
}

void PlotArea::axes(bool labels, bool grid, int max_ticks) {
  const std::vector<double> xt = nice_ticks(x_, max_ticks), yt = nice_ticks(y_, max_ticks);
  const double left = area_.x, right = area_.x + area_.width - 1;
  const double top = area_.y, bottom = area_.y + area_.height - 1;
  if (grid) {
    for (double t : xt) canvas_.line(px(t), top, px(t), bottom, colours::kLightGrey);
    for (double t : yt) canvas_.line(left, py(t), right, py(t), colours::kLightGrey);
  }
  canvas_.outline(area_, colours::kBlack);
  const int scale = 2, h = Canvas::text_height(scale);
  const double xstep = xt.size() > 1 ? xt[1] - xt[0] : x_.span();
  const double ystep = yt.size() > 1 ? yt[1] - yt[0] : y_.span();
  for (double t : xt) {
    canvas_.line(px(t), bottom + 1, px(t), bottom + 5, colours::kBlack);
    if (labels) {
      const std::string s = tick_label(t, xstep);
      canvas_.text(static_cast<int>(std::lround(px(t))) - Canvas::text_width(s, scale) / 2,
                   static_cast<int>(bottom) + 9, s, colours::kBlack, scale);
    }
  }
  for (double t : yt) {
    canvas_.line(left - 5, py(t), left - 1, py(t), colours::kBlack);
    if (labels) {
      const std::string s = tick_label(t, ystep);
      canvas_.text(static_cast<int>(left) - 9 - Canvas::text_width(s, scale),
                   static_cast<int>(std::lround(py(t))) - h / 2, s, colours::kBlack, scale);
    }
  }
}

void PlotArea::polyline(const std::vector<double>& x, const std::vector<double>& y, Rgb colour, int thickness) {
  FROST_EXPECTS(x.size() == y.size(), "polyline: x and y differ in length");
  canvas_.set_clip(area_);
  for (std::size_t i = 1; i < x.size(); ++i)
    canvas_.line(px(x[i - 1]), py(y[i - 1]), px(x[i]), py(y[i]), colour, thickness);
  if (x.size() == 1) canvas_.disc(px(x[0]), py(y[0]), thickness, colour);
  canvas_.reset_clip();
}

void PlotArea::horizontal_line(double y, Rgb colour, bool dashed) {
  canvas_.set_clip(area_);
  const double left = area_.x, right = area_.x + area_.width - 1;
  if (dashed) canvas_.dashed_line(left, py(y), right, py(y), colour);
  else canvas_.line(left, py(y), right, py(y), colour);
  canvas_.reset_clip();
}

void PlotArea::vertical_line(double x, Rgb colour, bool dashed) {
  canvas_.set_clip(area_);
  const double top = area_.y, bottom = area_.y + area_.height - 1;
  if (dashed) canvas_.dashed_line(px(x), bottom, px(x), top, colour);
  else canvas_.line(px(x), bottom, px(x), top, colour);
  canvas_.reset_clip();
}

void PlotArea::marker(double x, double y, Rgb colour, double radius) {
  canvas_.set_clip(area_);
  canvas_.disc(px(x), py(y), radius, colour);
  canvas_.reset_clip();
}

} // namespace frost::picture
