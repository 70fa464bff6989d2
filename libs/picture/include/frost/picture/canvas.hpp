#pragma once
/// @file canvas.hpp
/// @brief A minimal RGB rasteriser for plots: lines with a thickness, dashes, discs, rectangles
/// and a built-in 3x5 pixel font for numbers (no font library).
///
/// Pixel coordinates: (0, 0) is the centre of the top-left pixel, x to the right, y down.
#include <string>

#include "frost/picture/raster.hpp"

namespace frost::picture {

/// A rectangle of pixels: columns x .. x+width-1, rows y .. y+height-1.
struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
};

namespace colours {
inline constexpr Rgb kWhite{255, 255, 255};
inline constexpr Rgb kBlack{0, 0, 0};
inline constexpr Rgb kGrey{150, 150, 150};
inline constexpr Rgb kLightGrey{215, 215, 215};
inline constexpr Rgb kBlue{31, 90, 200};
inline constexpr Rgb kRed{210, 40, 40};
inline constexpr Rgb kGreen{30, 150, 60};
inline constexpr Rgb kOrange{235, 130, 20};
} // namespace colours

class Canvas {
public:
  Canvas(int width, int height, Rgb background = colours::kWhite);

  int width() const { return raster_.width; }
  int height() const { return raster_.height; }
  const Raster& raster() const { return raster_; }

  /// Drawing is limited to `clip` (intersected with the canvas) until reset_clip().
  void set_clip(PixelRect clip);
  void reset_clip();

  void pixel(int x, int y, Rgb colour);
  /// A segment of `thickness` pixels (a square brush), clipped to the clip rectangle first, so
  /// far-away end points cost nothing.
  void line(double x0, double y0, double x1, double y1, Rgb colour, int thickness = 1);
  /// The same in dashes of `dash` pixels separated by `gap` pixels.
  void dashed_line(double x0, double y0, double x1, double y1, Rgb colour, int dash = 6, int gap = 4);
  void disc(double x, double y, double radius, Rgb colour);
  void fill_rect(PixelRect r, Rgb colour);
  /// The one-pixel outline of `r`.
  void outline(PixelRect r, Rgb colour);
  /// Copies a grey or RGB picture with its top-left corner at (x, y).
  void paste(const Raster& picture, int x, int y);

  /// @brief Writes `text` with its top-left corner at (x, y) in the built-in font, each font
  /// pixel a `scale` x `scale` block. Known characters: 0-9 - + . e x; others leave a blank.
  void text(int x, int y, const std::string& text, Rgb colour, int scale = 2);
  /// Width and height in pixels of `text` at `scale`.
  static int text_width(const std::string& text, int scale = 2);
  static int text_height(int scale = 2);

private:
  Raster raster_;
  PixelRect clip_;
};

} // namespace frost::picture
