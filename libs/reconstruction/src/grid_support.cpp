#include "frost/reconstruction/grid_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "frost/core/error.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace {

/// Voxels x = 0 .. extent - 1 of row `row` lie within `radius` of the centre (y and z centred
/// on M/2; x is the frequency itself).
std::int64_t row_extent(int M, int row, double radius) {
  const int side = M + 1;
  const double ky = row % side - M / 2, kz = row / side - M / 2;
  const double left = radius * radius - ky * ky - kz * kz;
  if (left < 0) return 0;
  return std::min<std::int64_t>(M / 2 + 1, static_cast<std::int64_t>(std::floor(std::sqrt(left))) + 1);
}

} // namespace

double half_grid_support_radius(const GridLayout& layout, double blob_radius) { return layout.fx + blob_radius + 1; }

std::vector<SupportChunk> support_chunks(int M, double radius, std::size_t max_doubles) {
  FROST_EXPECTS(M > 0 && max_doubles > 0, "support_chunks: a grid and a positive chunk size");
  const int rows = (M + 1) * (M + 1);
  std::vector<SupportChunk> out;
  SupportChunk c;
  for (int row = 0; row < rows; ++row) {
    const std::size_t need = 3 * static_cast<std::size_t>(row_extent(M, row, radius));
    if (c.doubles > 0 && c.doubles + need > max_doubles) {
      c.end_row = row;
      out.push_back(c);
      c = SupportChunk{row, row, 0};
    }
    c.doubles += need;
  }
  c.end_row = rows;
  if (c.doubles > 0) out.push_back(c);
  return out;
}

void pack_support(const HalfGrid& grid, double radius, const SupportChunk& chunk, double* out) {
  const int side = grid.M + 1;
  for (int row = chunk.first_row; row < chunk.end_row; ++row) {
    const std::int64_t n = row_extent(grid.M, row, radius), base = grid.index(0, row % side, row / side);
    out = std::copy(grid.data.begin() + 2 * base, grid.data.begin() + 2 * (base + n), out);
    out = std::copy(grid.weight.begin() + base, grid.weight.begin() + base + n, out);
  }
}

void unpack_support(HalfGrid& grid, double radius, const SupportChunk& chunk, const double* in) {
  const int side = grid.M + 1;
  for (int row = chunk.first_row; row < chunk.end_row; ++row) {
    const std::int64_t n = row_extent(grid.M, row, radius), base = grid.index(0, row % side, row / side);
    std::copy(in, in + 2 * n, grid.data.begin() + 2 * base);
    in += 2 * n;
    std::copy(in, in + n, grid.weight.begin() + base);
    in += n;
  }
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
