#pragma once
/// @file plot.hpp
/// @brief Line plots on a Canvas: a data range mapped onto a rectangle (x right, y up), a frame
/// with tick marks and numeric labels, polylines, reference lines and markers.
#include <string>
#include <vector>

#include "frost/picture/canvas.hpp"

namespace frost::picture {

/// A closed interval of data values.
struct Range {
  double lo = 0, hi = 1;
  double span() const { return hi - lo; }
};

/// @brief Tick positions inside `r` at a step of 1, 2 or 5 x 10^k, the smallest such step that
/// gives at most `max_ticks` ticks (values within 1e-9 of a step multiple snap to it).
std::vector<double> nice_ticks(Range r, int max_ticks = 6);

/// @brief Short label of a tick value for a given tick step: as many decimals as the step needs
/// ("0.25", "-10", "1e+03" only for magnitudes the decimals cannot show in 7 characters).
std::string tick_label(double value, double step);

/// @brief The range of the finite values of `a` and `b`, widened by `margin` times its span on
/// both sides; a single value v gives v ± max(1, |v|)·margin·10; no finite value gives [0, 1].
Range data_range(const std::vector<double>& a, const std::vector<double>& b = {}, double margin = 0.05);

/// Data coordinates of one plot mapped linearly onto `area` of a canvas (x right, y up).
class PlotArea {
public:
  /// @throw frost::Error(Runtime) for an empty area or a range of zero or non-finite span.
  PlotArea(Canvas& canvas, PixelRect area, Range x, Range y);

  /// Pixel coordinates of data point (x, y): lo maps to the first pixel, hi to the last.
  double px(double x) const;
  double py(double y) const;
  const PixelRect& area() const { return area_; }
  Range x_range() const { return x_; }
  Range y_range() const { return y_; }

  /// Frame around the area, ticks at nice_ticks on the left and bottom edges, labelled in the
  /// built-in font outside the area (the caller leaves a margin of about 8 characters on the
  /// left and two text lines below); grid lines through the ticks when `grid` is true.
  void axes(bool labels = true, bool grid = true, int max_ticks = 6);
  /// The connected points (x_i, y_i), clipped to the area; non-finite points break the line.
  void polyline(const std::vector<double>& x, const std::vector<double>& y, Rgb colour, int thickness = 2);
  void horizontal_line(double y, Rgb colour, bool dashed = true);
  void vertical_line(double x, Rgb colour, bool dashed = true);
  void marker(double x, double y, Rgb colour, double radius = 3);

private:
  Canvas& canvas_;
  PixelRect area_;
  Range x_, y_;
};

} // namespace frost::picture
