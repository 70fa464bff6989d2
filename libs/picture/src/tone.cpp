#include "frost/picture/tone.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "frost/core/error.hpp"

namespace frost::picture {

namespace {

constexpr index_t kMaxSamples = index_t{1} << 20;

void require_2d(View<const float> image, const char* who) {
  if (image.shape.z != 1 || image.shape.n != 1)
    FROST_THROW(ExitCode::Runtime, std::string(who) + ": expects one 2-D image, got " + to_string(image.shape));
}

} // namespace

Window percentile_window(View<const float> image, double low_percent, double high_percent) {
  FROST_EXPECTS(0 <= low_percent && low_percent <= high_percent && high_percent <= 100,
                "percentile_window: need 0 <= low <= high <= 100");
  const index_t total = image.shape.total();
  const index_t stride = std::max<index_t>(1, (total + kMaxSamples - 1) / kMaxSamples);
  std::vector<float> values;
  values.reserve(static_cast<std::size_t>(total / stride + 1));
  for (index_t i = 0; i < total; i += stride)
    if (std::isfinite(image[i])) values.push_back(image[i]);
  if (values.empty()) return {0, 0};
  auto rank = [&](double percent) {
    const auto k = static_cast<std::size_t>(std::lround(percent / 100.0 * static_cast<double>(values.size() - 1)));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    return static_cast<double>(values[k]);
  };
  const double low = rank(low_percent);
  const double high = rank(high_percent);
  return {low, high};
}

Raster to_grey(View<const float> image, Window window) {
  require_2d(image, "to_grey");
  const int nx = static_cast<int>(image.shape.x), ny = static_cast<int>(image.shape.y);
  Raster out = Raster::grey(nx, ny, 128);
  const double span = window.high - window.low;
  if (!(span > 0)) return out;
  const double scale = 255.0 / span;
  for (int y = 0; y < ny; ++y) {
    std::uint8_t* row = out.at(0, ny - 1 - y); // row 0 of the image at the bottom
    for (int x = 0; x < nx; ++x) {
      const double v = image(x, y);
      row[x] = std::isfinite(v) ? static_cast<std::uint8_t>(std::lround(std::clamp((v - window.low) * scale, 0.0, 255.0)))
                                : std::uint8_t{0};
    }
  }
  return out;
}

Raster to_grey(View<const float> image, double low_percent, double high_percent) {
  require_2d(image, "to_grey");
  return to_grey(image, percentile_window(image, low_percent, high_percent));
}

Image<float> shrink(View<const float> image, index_t f) {
  require_2d(image, "shrink");
  FROST_EXPECTS(f >= 1, "shrink: factor >= 1");
  const index_t nx = image.shape.x, ny = image.shape.y;
  const index_t ox = (nx + f - 1) / f, oy = (ny + f - 1) / f;
  Image<float> out(Shape::image(ox, oy));
  for (index_t by = 0; by < oy; ++by)
    for (index_t bx = 0; bx < ox; ++bx) {
      double sum = 0;
      index_t count = 0;
      for (index_t y = by * f; y < std::min(ny, (by + 1) * f); ++y)
        for (index_t x = bx * f; x < std::min(nx, (bx + 1) * f); ++x) {
          sum += image(x, y);
          ++count;
        }
      out(bx, by) = static_cast<float>(sum / static_cast<double>(count));
    }
  return out;
}

Image<float> shrink_to_fit(View<const float> image, index_t max_side) {
  require_2d(image, "shrink_to_fit");
  FROST_EXPECTS(max_side >= 1, "shrink_to_fit: max_side >= 1");
  return shrink(image, std::max<index_t>(1, (std::max(image.shape.x, image.shape.y) + max_side - 1) / max_side));
}

Raster magnify(const Raster& raster, int factor) {
  FROST_EXPECTS(factor >= 1, "magnify: factor >= 1");
  if (factor == 1) return raster;
  Raster out;
  out.width = raster.width * factor;
  out.height = raster.height * factor;
  out.channels = raster.channels;
  out.pixels.resize(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height) *
                    static_cast<std::size_t>(out.channels));
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x)
      std::copy_n(raster.at(x / factor, y / factor), raster.channels, out.at(x, y));
  return out;
}

} // namespace frost::picture
