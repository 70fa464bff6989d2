#pragma once
/// @file defects.hpp
/// @brief The bad-pixel mask of a movie (docs/movie_align.md#gain-dark-defects-and-hot-pixels):
/// MotionCor2 `x y w h` defect files, defect images (non-zero = bad), gain pixels of value 0.
#include <cstdint>
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/motion/gain_transform.hpp"

namespace frost::motion {

/// Mask values: 0 good; the others say why a pixel is replaced.
enum BadPixelKind : std::uint8_t {
  kGoodPixel = 0,
  kDefectPixel = 1,   ///< from --defects
  kZeroGainPixel = 2, ///< the gain is 0 there
  kHotPixel = 3       ///< above mean + k·sigma of the unaligned sum
};

/// @brief One defect rectangle of a MotionCor2 defect file: columns [x, x+w), rows [y, y+h) of
/// the frame as frost reads it (after the TIFF row flip; the gain transform is not applied).
struct DefectRect {
  index_t x = 0, y = 0, w = 0, h = 0;
};

/// @brief Parses the text of a MotionCor2 defect file: one `x y w h` per line; blank lines and
/// lines starting with '#' are skipped. SerialEM's defect lists (CameraSizeX, RotationAndFlip,
/// K2Type, BadColumns, ...) are a different format and are rejected with a message saying so.
/// @throw frost::Error(Input) naming `path` and the line for anything else.
std::vector<DefectRect> parse_defect_text(const std::string& text, const std::string& path);

/// @brief True when `path` names a defect image (MRC or TIFF extension) rather than a text file.
bool is_defect_image(const std::string& path);

/// @brief Marks the rectangles in `mask` (width x height, kDefectPixel); parts outside the frame
/// are clipped, a rectangle wholly outside gives a warning.
void mark_defect_rects(const std::vector<DefectRect>& rects, Image<std::uint8_t>& mask, const std::string& path);

/// @brief Adds the defects of `path` to `mask`: a text file (parse_defect_text) or an image of
/// the raw frame's orientation up to `transform` (which is applied to it as to the gain), whose
/// non-zero pixels are bad. Input error when the oriented image does not match the mask size.
void add_defects(const std::string& path, const GainTransform& transform, bool tiff_flip_y, Image<std::uint8_t>& mask);

/// @brief Marks pixels whose gain is 0 as kZeroGainPixel (unless already bad); returns how many.
index_t mark_zero_gain(View<const float> gain, Image<std::uint8_t>& mask);

/// @brief Number of non-zero mask pixels.
index_t count_bad(View<const std::uint8_t> mask);

} // namespace frost::motion
