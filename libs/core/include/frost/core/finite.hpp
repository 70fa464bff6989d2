#pragma once
/// @file finite.hpp
/// @brief Finding NaN and Inf in an image before it is written or used: a non-finite output is
/// an error naming the stage, never a file (docs/conventions.md#outputs).
#include <cmath>

#include "frost/core/image.hpp"

namespace frost {

/// The NaN and Inf values of an image: how many, and the index of the first.
struct NonFinite {
  index_t count = 0;
  index_t first = -1; ///< -1 when count is 0
};

/// @brief Counts the values of `image` that are not finite (host memory).
inline NonFinite find_non_finite(View<const float> image) {
  NonFinite out;
  const index_t n = image.shape.total();
  for (index_t i = 0; i < n; ++i)
    if (!std::isfinite(image[i]) && out.count++ == 0) out.first = i;
  return out;
}

} // namespace frost
