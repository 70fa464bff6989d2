#pragma once
// Error measures of the GPU parity tests besides test::relative_l2 (frost/test/support.hpp): every
// test prints what it measured, so one device run shows how far each stage is from its bound.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "frost/core/image.hpp"

namespace frost::motion::cuda_test {

/// rms(a − b) / std(b): the micrograph measure of docs/movie_align.md#cpu-and-gpu-equivalence.
inline double rms_over_std(View<const float> a, View<const float> b) {
  const index_t n = b.shape.total();
  double mean = 0;
  for (index_t i = 0; i < n; ++i) mean += b[i];
  mean /= static_cast<double>(n);
  double var = 0, diff = 0;
  for (index_t i = 0; i < n; ++i) {
    var += (b[i] - mean) * (b[i] - mean);
    diff += (static_cast<double>(a[i]) - b[i]) * (static_cast<double>(a[i]) - b[i]);
  }
  return var > 0 ? std::sqrt(diff / var) : std::sqrt(diff / static_cast<double>(n));
}

/// Largest |a − b| over all elements.
inline double max_abs_diff(View<const float> a, View<const float> b) {
  double m = 0;
  for (index_t i = 0; i < b.shape.total(); ++i) m = std::max(m, std::abs(static_cast<double>(a[i]) - b[i]));
  return m;
}

} // namespace frost::motion::cuda_test
