// The `--controlPoints auto` rule (docs/movie_align.md#fitting-the-coefficients).
#include "frost/motion/control_points.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "frost/core/error.hpp"

namespace frost::motion {

ControlPoints auto_control_points(double width, double height, double pixel_size, int frames) {
  if (!(width > 0) || !(height > 0) || !(pixel_size > 0) || frames <= 0)
    throw_usage_error("automatic control points need a positive frame size, pixel size and frame count");
  // floor(extent/1000 Å) intervals (at least one) plus the two extra end points.
  const auto spatial = [&](double extent_px) {
    return std::max(3, static_cast<int>(std::floor(extent_px * pixel_size / 1000.0)) + 2);
  };
  ControlPoints c;
  c.x = spatial(width);
  c.y = spatial(height);
  c.t = std::max(3, (frames + 6) / 7 + 2);
  return c;
}

} // namespace frost::motion
