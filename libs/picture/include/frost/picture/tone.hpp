#pragma once
/// @file tone.hpp
/// @brief From float images to 8-bit grey pictures: percentile clipping, shrinking for
/// thumbnails, magnifying small pictures.
///
/// Orientation: row 0 of an image is the bottom row of its picture (y up), as IMOD and
/// ChimeraX show MRC files; plots (plot.hpp) use the same sense for their y axis.
#include "frost/core/image.hpp"
#include "frost/picture/raster.hpp"

namespace frost::picture {

/// Intensity window in data units: values <= low are black, >= high white.
struct Window {
  double low = 0, high = 1;
};

/// @brief The values at the `low_percent` and `high_percent` percentiles of the finite values of
/// `image` (all items), nearest rank. Images of more than 2^20 values are sampled on a regular
/// stride (deterministic). {0, 0} when no value is finite.
/// @throw frost::Error(Runtime) unless 0 <= low_percent <= high_percent <= 100.
Window percentile_window(View<const float> image, double low_percent = 0.5, double high_percent = 99.5);

/// @brief The 2-D image as a grey picture: 255·(v − low)/(high − low), rounded and clamped;
/// non-finite values black; a window of zero width gives mid-grey (128) everywhere. Row 0 of the
/// image becomes the bottom row of the picture.
/// @throw frost::Error(Runtime) for a volume or a stack.
Raster to_grey(View<const float> image, Window window);
/// The same with percentile_window(image, low_percent, high_percent).
Raster to_grey(View<const float> image, double low_percent = 0.5, double high_percent = 99.5);

/// @brief Box average by the integer factor f >= 1: ceil(nx/f) x ceil(ny/f) pixels, the boxes at
/// the right and top edges averaged over the pixels they hold (f = 1: a copy).
/// @throw frost::Error(Runtime) for a volume or a stack, or f < 1.
Image<float> shrink(View<const float> image, index_t factor);
/// shrink() by the smallest factor that makes both sides <= max_side (>= 1).
Image<float> shrink_to_fit(View<const float> image, index_t max_side);

/// Nearest-neighbour enlargement by an integer factor (>= 1) for pictures of small boxes.
Raster magnify(const Raster& raster, int factor);

} // namespace frost::picture
