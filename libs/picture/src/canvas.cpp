#include "frost/picture/canvas.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace frost::picture {

namespace {

/// 3x5 glyphs, one byte per row, bit 2 = left column.
struct Glyph {
  char c;
  std::uint8_t rows[5];
};
constexpr Glyph kFont[] = {
    {'0', {7, 5, 5, 5, 7}}, {'1', {2, 6, 2, 2, 7}}, {'2', {7, 1, 7, 4, 7}}, {'3', {7, 1, 7, 1, 7}},
    {'4', {5, 5, 7, 1, 1}}, {'5', {7, 4, 7, 1, 7}}, {'6', {7, 4, 7, 5, 7}}, {'7', {7, 1, 1, 1, 1}},
    {'8', {7, 5, 7, 5, 7}}, {'9', {7, 5, 7, 1, 7}}, {'-', {0, 0, 7, 0, 0}}, {'+', {0, 2, 7, 2, 0}},
    {'.', {0, 0, 0, 0, 2}}, {'e', {0, 7, 7, 4, 7}}, {'x', {0, 5, 2, 5, 0}}};

const Glyph* glyph(char c) {
  for (const Glyph& g : kFont)
    if (g.c == c) return &g;
  return nullptr;
}

PixelRect intersect(PixelRect a, PixelRect b) {
  const int x0 = std::max(a.x, b.x), y0 = std::max(a.y, b.y);
  const int x1 = std::min(a.x + a.width, b.x + b.width), y1 = std::min(a.y + a.height, b.y + b.height);
  return {x0, y0, std::max(0, x1 - x0), std::max(0, y1 - y0)};
}

/// Liang-Barsky: clips the segment to [xmin, xmax] x [ymin, ymax]; false when nothing is left.
bool clip_segment(double& x0, double& y0, double& x1, double& y1, double xmin, double ymin, double xmax, double ymax) {
  double t0 = 0, t1 = 1;
  const double dx = x1 - x0, dy = y1 - y0;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {x0 - xmin, xmax - x0, y0 - ymin, ymax - y0};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  const double ax = x0 + t0 * dx, ay = y0 + t0 * dy;
  x1 = x0 + t1 * dx;
  y1 = y0 + t1 * dy;
  x0 = ax;
  y0 = ay;
  return true;
}

} // namespace

Canvas::Canvas(int width, int height, Rgb background)
    : raster_(Raster::rgb(width, height, background)), clip_{0, 0, width, height} {}

void Canvas::set_clip(PixelRect clip) { clip_ = intersect(clip, {0, 0, width(), height()}); }

void Canvas::reset_clip() { clip_ = {0, 0, width(), height()}; }

void Canvas::pixel(int x, int y, Rgb colour) {
  if (x < clip_.x || y < clip_.y || x >= clip_.x + clip_.width || y >= clip_.y + clip_.height) return;
  std::uint8_t* p = raster_.at(x, y);
  p[0] = colour.r;
  p[1] = colour.g;
  p[2] = colour.b;
}

void Canvas::line(double x0, double y0, double x1, double y1, Rgb colour, int thickness) {
  if (!std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1) || !std::isfinite(y1)) return;
  thickness = std::max(1, thickness);
  const double pad = thickness;
  if (!clip_segment(x0, y0, x1, y1, clip_.x - pad, clip_.y - pad, clip_.x + clip_.width + pad,
                    clip_.y + clip_.height + pad))
    return;
  const int steps = std::max(1, static_cast<int>(std::ceil(std::max(std::abs(x1 - x0), std::abs(y1 - y0)))));
  const int lo = -(thickness - 1) / 2, hi = thickness / 2;
  for (int i = 0; i <= steps; ++i) {
    const double t = static_cast<double>(i) / steps;
    const int cx = static_cast<int>(std::lround(x0 + t * (x1 - x0)));
    const int cy = static_cast<int>(std::lround(y0 + t * (y1 - y0)));
    for (int dy = lo; dy <= hi; ++dy)
      for (int dx = lo; dx <= hi; ++dx) pixel(cx + dx, cy + dy, colour);
  }
}

void Canvas::dashed_line(double x0, double y0, double x1, double y1, Rgb colour, int dash, int gap) {
  const double length = std::hypot(x1 - x0, y1 - y0);
  if (!(length > 0) || !std::isfinite(length)) return;
  const double ux = (x1 - x0) / length, uy = (y1 - y0) / length;
  for (double s = 0; s < length; s += dash + gap) {
    const double e = std::min(length, s + dash - 1);
    line(x0 + s * ux, y0 + s * uy, x0 + e * ux, y0 + e * uy, colour);
  }
}

void Canvas::disc(double x, double y, double radius, Rgb colour) {
  if (!std::isfinite(x) || !std::isfinite(y)) return;
  const int r = static_cast<int>(std::ceil(radius));
  const int cx = static_cast<int>(std::lround(x)), cy = static_cast<int>(std::lround(y));
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx)
      if (dx * dx + dy * dy <= radius * radius + 0.5) pixel(cx + dx, cy + dy, colour);
}

void Canvas::fill_rect(PixelRect r, Rgb colour) {
  for (int y = r.y; y < r.y + r.height; ++y)
    for (int x = r.x; x < r.x + r.width; ++x) pixel(x, y, colour);
}

void Canvas::outline(PixelRect r, Rgb colour) {
  const double x0 = r.x, y0 = r.y, x1 = r.x + r.width - 1, y1 = r.y + r.height - 1;
  line(x0, y0, x1, y0, colour);
  line(x1, y0, x1, y1, colour);
  line(x1, y1, x0, y1, colour);
  line(x0, y1, x0, y0, colour);
}

void Canvas::paste(const Raster& picture, int x, int y) {
  for (int j = 0; j < picture.height; ++j)
    for (int i = 0; i < picture.width; ++i) pixel(x + i, y + j, picture.colour(i, j));
}

void Canvas::text(int x, int y, const std::string& text, Rgb colour, int scale) {
  for (std::size_t k = 0; k < text.size(); ++k) {
    const Glyph* g = glyph(text[k]);
    if (!g) continue;
    const int left = x + static_cast<int>(k) * 4 * scale;
    for (int row = 0; row < 5; ++row)
      for (int col = 0; col < 3; ++col)
        if (g->rows[row] & (4 >> col)) fill_rect({left + col * scale, y + row * scale, scale, scale}, colour);
  }
}

int Canvas::text_width(const std::string& text, int scale) {
  return text.empty() ? 0 : (4 * static_cast<int>(text.size()) - 1) * scale;
}

int Canvas::text_height(int scale) { return 5 * scale; }

} // namespace frost::picture
