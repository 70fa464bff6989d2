#include "frost/motion/warp_prefilter.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/geometry/bspline.hpp"

namespace frost::motion {

namespace detail {

void prefilter_lanes(float* data, index_t n, index_t stride, index_t lanes) {
  FROST_EXPECTS(n >= 16, "prefilter_lanes: lines of at least 16 samples");
  const double zd = std::sqrt(3.0) - 2.0;
  const float z = static_cast<float>(zd);
  // Causal start: sum over the first 30 terms of the mirrored line (period 2n - 2 > 30), as
  // bspline_prefilter_line does for long lines; |z|^30 is far below float precision.
  std::vector<float> c0(static_cast<std::size_t>(lanes), 0.f);
  float* acc = c0.data();
  double zk = 1.0;
  for (index_t k = 0; k < 30; ++k, zk *= zd) {
    const float w = static_cast<float>(6.0 * zk);
    const float* src = data + geom::mirror_index(k, n) * stride;
    for (index_t l = 0; l < lanes; ++l) acc[l] += w * src[l];
  }
  std::memcpy(data, acc, sizeof(float) * static_cast<std::size_t>(lanes));
  for (index_t k = 1; k < n; ++k) {
    float* cur = data + k * stride;
    const float* prev = cur - stride;
    for (index_t l = 0; l < lanes; ++l) cur[l] = 6.f * cur[l] + z * prev[l];
  }
  // Anti-causal start for the mirror boundary, then c-[k] = z (c-[k+1] - c+[k]).
  const float end = static_cast<float>(zd / (zd * zd - 1.0));
  float* last = data + (n - 1) * stride;
  const float* before = last - stride;
  for (index_t l = 0; l < lanes; ++l) last[l] = end * (last[l] + z * before[l]);
  for (index_t k = n - 2; k >= 0; --k) {
    float* cur = data + k * stride;
    const float* next = cur + stride;
    for (index_t l = 0; l < lanes; ++l) cur[l] = z * (next[l] - cur[l]);
  }
}

} // namespace detail

Image<float> bspline_coefficients_float(View<const float> frame) {
  FROST_EXPECTS(frame.shape.z == 1 && frame.shape.n == 1, "bspline_coefficients_float: expects one 2-D frame");
  const index_t nx = frame.shape.x, ny = frame.shape.y;
  if (nx < 16 || ny < 16) return geom::bspline_coefficients_2d(frame);
  Image<float> out(frame.shape);
  std::memcpy(out.data(), frame.data, sizeof(float) * static_cast<std::size_t>(frame.shape.total()));
  float* d = out.data();
  // Columns: strips of adjacent columns, each sample row of a strip contiguous.
  constexpr index_t kStrip = 64;
  const index_t strips = (nx + kStrip - 1) / kStrip;
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t s = 0; s < strips; ++s) {
    const index_t x0 = s * kStrip;
    detail::prefilter_lanes(d + x0, ny, nx, std::min(kStrip, nx - x0));
  }
  // Rows: blocks of 8 rows transposed into [x][8], filtered as 8 lanes, transposed back.
  constexpr index_t kRows = 8;
  const index_t blocks = (ny + kRows - 1) / kRows;
#pragma omp parallel num_threads(num_threads())
  {
    std::vector<float> buf(static_cast<std::size_t>(nx * kRows));
#pragma omp for schedule(static)
    for (index_t b = 0; b < blocks; ++b) {
      const index_t y0 = b * kRows, rows = std::min(kRows, ny - y0);
      for (index_t r = 0; r < rows; ++r) {
        const float* src = d + (y0 + r) * nx;
        for (index_t x = 0; x < nx; ++x) buf[static_cast<std::size_t>(x * kRows + r)] = src[x];
      }
      detail::prefilter_lanes(buf.data(), nx, kRows, rows);
      for (index_t r = 0; r < rows; ++r) {
        float* dst = d + (y0 + r) * nx;
        for (index_t x = 0; x < nx; ++x) dst[x] = buf[static_cast<std::size_t>(x * kRows + r)];
      }
    }
  }
  return out;
}

} // namespace frost::motion
