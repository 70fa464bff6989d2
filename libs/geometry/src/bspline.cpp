#include "frost/geometry/bspline.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"

namespace frost::geom {


template <class T>
void bspline_prefilter_1d(T* data, index_t n, index_t stride) {
  std::vector<double> line(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) line[static_cast<std::size_t>(i)] = static_cast<double>(data[i * stride]);
  bspline_prefilter_line(line.data(), n);
  for (index_t i = 0; i < n; ++i) data[i * stride] = static_cast<T>(line[static_cast<std::size_t>(i)]);
}

template <class T>
void bspline_prefilter_2d(View<T> img) {
  FROST_EXPECTS(img.shape.z == 1, "bspline_prefilter_2d: expects 2-D items, got " + to_string(img.shape));
  const index_t nx = img.shape.x, ny = img.shape.y, items = img.shape.n;
  // Rows (contiguous), then columns; each pass is parallel over lines. Columns go in blocks of
  // kBlock side by side: the block is copied row by row (whole cache lines) into a line buffer
  // where each column is filtered with its stride, then copied back, instead of touching one
  // cache line per sample. Each column's arithmetic is bspline_prefilter_line's, unchanged.
  constexpr index_t kBlock = 16;
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t r = 0; r < ny * items; ++r) bspline_prefilter_1d(img.data + r * nx, nx, 1);
  const index_t blocks_per_item = (nx + kBlock - 1) / kBlock;
#pragma omp parallel num_threads(num_threads())
  {
    std::vector<double> lines(static_cast<std::size_t>(ny * kBlock));
#pragma omp for schedule(static)
    for (index_t b = 0; b < blocks_per_item * items; ++b) {
      const index_t item = b / blocks_per_item, x0 = (b % blocks_per_item) * kBlock;
      const index_t width = std::min(kBlock, nx - x0);
      T* base = img.data + item * nx * ny + x0;
      for (index_t y = 0; y < ny; ++y)
        for (index_t c = 0; c < width; ++c)
          lines[static_cast<std::size_t>(y * kBlock + c)] = static_cast<double>(base[y * nx + c]);
      for (index_t c = 0; c < width; ++c) bspline_prefilter_line(lines.data() + c, ny, kBlock);
      for (index_t y = 0; y < ny; ++y)
        for (index_t c = 0; c < width; ++c)
          base[y * nx + c] = static_cast<T>(lines[static_cast<std::size_t>(y * kBlock + c)]);
    }
  }
}

template <class T>
Image<T> bspline_coefficients_2d(View<const T> img) {
  Image<T> out(img.shape);
  std::memcpy(static_cast<void*>(out.data()), img.data, static_cast<std::size_t>(img.shape.total()) * sizeof(T));
  bspline_prefilter_2d(out.view());
  return out;
}

template void bspline_prefilter_1d<float>(float*, index_t, index_t);
template void bspline_prefilter_1d<double>(double*, index_t, index_t);
template void bspline_prefilter_2d<float>(View<float>);
template void bspline_prefilter_2d<double>(View<double>);
template Image<float> bspline_coefficients_2d<float>(View<const float>);
template Image<double> bspline_coefficients_2d<double>(View<const double>);

} // namespace frost::geom
