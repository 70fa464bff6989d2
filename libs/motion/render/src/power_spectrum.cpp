#include "frost/motion/power_spectrum.hpp"

#include <string>

#include "frost/core/error.hpp"
#include "frost/picture/power_spectrum.hpp"

namespace frost::motion {

Image<float> mean_periodogram(View<const float> image, index_t n) {
  FROST_EXPECTS(image.shape.z == 1 && image.shape.n == 1, "mean_periodogram: expects one 2-D image");
  const index_t nx = image.shape.x, ny = image.shape.y;
  if (n < 2 || n % 2 != 0 || n > nx || n > ny)
    throw_usage_error("--psd-size " + std::to_string(n) + " must be even, >= 2 and fit in the " + std::to_string(nx) +
                      "x" + std::to_string(ny) + " micrograph");
  return picture::mean_periodogram(image, n);
}

} // namespace frost::motion
