#include "frost/reconstruction/grid.hpp"

#include <cmath>

#include "frost/core/error.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

FullGrid::FullGrid(const GridLayout& layout)
    : data(Shape::volume(layout.side(), layout.side(), layout.side())),
      weight(Shape::volume(layout.side(), layout.side(), layout.side())) {}

FullGrid& FullGrid::operator+=(const FullGrid& other) {
  FROST_EXPECTS(other.data.size() == data.size(), "other.data.size() == data.size()");
  const index_t n = data.size();
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < n; ++i) {
    data[i] += other.data[i];
    weight[i] += other.weight[i];
  }
  return *this;
}

void FullGrid::clear() {
  const index_t n = data.size();
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < n; ++i) {
    data[i] = RealComplex(0, 0);
    weight[i] = 0;
  }
}

HalfGrid::HalfGrid(const GridLayout& layout)
    : M(layout.M), data(2 * static_cast<std::size_t>(layout.half_voxels())),
      weight(static_cast<std::size_t>(layout.half_voxels())) {
  const std::int64_t n = static_cast<std::int64_t>(weight.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    data[2 * i] = 0.0;
    data[2 * i + 1] = 0.0;
    weight[i] = 0.0;
  }
}

HalfGrid& HalfGrid::operator+=(const HalfGrid& other) {
  FROST_EXPECTS(other.M == M && other.weight.size() == weight.size(), "other.M == M && other.weight.size() == weight.size()");
  const std::size_t n = weight.size();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
    data[2 * i] += other.data[2 * i];
    data[2 * i + 1] += other.data[2 * i + 1];
    weight[i] += other.weight[i];
  }
  return *this;
}

std::vector<BlobTap> blob_convolution_taps(const BlobTable& table) {
  const double a = table.params().radius;
  const int r = static_cast<int>(std::floor(a));
  std::vector<BlobTap> taps;
  for (int dz = -r; dz <= r; ++dz)
    for (int dy = -r; dy <= r; ++dy)
      for (int dx = -r; dx <= r; ++dx) {
        const Real d2 = Real(dx * dx + dy * dy + dz * dz);
        if (d2 <= a * a) {
          BlobTap t;
          t.dx = dx;
          t.dy = dy;
          t.dz = dz;
          t.w = table.nearest(d2);
          taps.push_back(t);
        }
      }
  return taps;
}

void convolve_with_blob(FullGrid& grid, const BlobTable& table) {
  const int side = grid.side();
  const std::vector<BlobTap> taps = blob_convolution_taps(table);
  const int count = static_cast<int>(taps.size());
  const RealComplex* g = grid.data.data();
  const Real* gw = grid.weight.data();
  const auto load = [g, gw, side](int x, int y, int z, Real& re, Real& im, Real& w) {
    const std::size_t i = (std::size_t(z) * side + y) * side + x;
    re = g[i].real();
    im = g[i].imag();
    w = gw[i];
  };
  FullGrid out;
  out.data = Image<RealComplex>(grid.data.shape());
  out.weight = Image<Real>(grid.weight.shape());
#pragma omp parallel for schedule(static)
  for (int z = 0; z < side; ++z)
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x) {
        Real re, im, w;
        convolve_voxel(taps.data(), count, x, y, z, side, load, re, im, w);
        out.data(x, y, z) = RealComplex(re, im);
        out.weight(x, y, z) = w;
      }
  grid = std::move(out);
}

void fold_into(const FullGrid& grid, HalfGrid& out) {
  const int side = grid.side();
  const int M = side - 1;
  FROST_EXPECTS(out.M == M, "out.M == M");
  const int h = M / 2;
  const RealComplex* g = grid.data.data();
  const Real* gw = grid.weight.data();
  const auto load = [g, gw, side](int x, int y, int z, Real& re, Real& im, Real& w) {
    const std::size_t i = (std::size_t(z) * side + y) * side + x;
    re = g[i].real();
    im = g[i].imag();
    w = gw[i];
  };
  // Each output voxel (kx >= 0) takes its own value plus the conjugate of its mirror -v when
  // the mirror has kx < 0 (fold_voxel). Parallel over z without conflicts: every output voxel
  // is written by one iteration.
#pragma omp parallel for schedule(static)
  for (int z = 0; z < side; ++z)
    for (int y = 0; y < side; ++y)
      for (int xo = 0; xo <= h; ++xo) {
        const std::int64_t o = out.index(xo, y, z);
        double re, im, w;
        fold_voxel(xo, y, z, M, load, re, im, w);
        out.data[2 * o] += re;
        out.data[2 * o + 1] += im;
        out.weight[o] += w;
      }
}

HalfGrid fold(const FullGrid& grid, const GridLayout& layout) {
  HalfGrid out(layout);
  fold_into(grid, out);
  return out;
}

void symmetrise_kx0_plane(HalfGrid& g) {
  const int M = g.M;
  for (int z = 0; z <= M; ++z)
    for (int y = 0; y <= M; ++y) {
      const int my = M - y, mz = M - z;
      // Visit each pair once: (z, y) before its mirror in linear order; the centre pairs itself.
      if (z * (M + 1) + y > mz * (M + 1) + my) continue;
      average_kx0_pair(g.data.data(), g.weight.data(), g.index(0, y, z), g.index(0, my, mz));
    }
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
