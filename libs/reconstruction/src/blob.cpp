#include "frost/reconstruction/blob.hpp"

#include <algorithm>
#include <cmath>

#include "frost/core/error.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

BlobTable::BlobTable(const BlobParams& p, int size, bool normalise) : params_(p) {
  FROST_EXPECTS(size >= 2, "blob table needs at least 2 entries");
  FROST_EXPECTS(p.radius > 0 && p.alpha >= 0 && p.order >= 0 && p.order <= 4,
                "blob parameters out of range (a > 0, alpha >= 0, 0 <= m <= 4)");
  const double ima = bessel_i(p.order, p.alpha);
  scale_ = normalise ? 1.0 / blob_fourier(0.0, p, ima) : 1.0;
  values_.resize(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) {
    const double r = p.radius * std::sqrt(static_cast<double>(i) / (size - 1));
    values_[static_cast<std::size_t>(i)] = static_cast<Real>(scale_ * blob_value(r, p, ima));
  }
}

WindowTable::WindowTable(const BlobParams& p, int window, int rows) : rows_(rows), window_(window) {
  FROST_EXPECTS(rows >= 2 && (window == 3 || window == 4), "window table: at least 2 rows, a window of 3 or 4");
  const double ima = bessel_i(p.order, p.alpha);
  scale_ = 1.0 / blob_fourier_nd(0.0, p, ima, 1);
  const double t0 = window == 3 ? -0.5 : 0.0;
  values_.assign(static_cast<std::size_t>(4 * rows), Real(0));
  for (int r = 0; r < rows; ++r) {
    const double t = t0 + double(r) / (rows - 1);
    for (int q = 0; q < window; ++q)
      values_[static_cast<std::size_t>(4 * r + q)] = static_cast<Real>(scale_ * blob_value(q - 1 - t, p, ima));
  }
}

BlobTableView BlobTable::view() const noexcept {
  BlobTableView v;
  v.data = values_.data();
  v.size = size();
  const double a2 = params_.radius * params_.radius;
  v.inv_step = static_cast<Real>((size() - 1) / a2);
  v.radius2 = static_cast<Real>(a2);
  return v;
}

TableAccuracy measure_table_accuracy(const BlobTable& table, int samples, double floor) {
  const BlobParams& p = table.params();
  const double ima = bessel_i(p.order, p.alpha);
  const BlobTableView v = table.view();
  TableAccuracy acc;
  for (int i = 0; i < samples; ++i) {
    const double r = p.radius * i / (samples - 1.0);
    const Real d2 = static_cast<Real>(r * r);
    const double k = blob_value(r, p, ima); // K(0) = 1
    const double tn = v.nearest(d2) / table.scale();
    const double tl = v.linear(d2) / table.scale();
    const double en = std::abs(tn - k), el = std::abs(tl - k);
    acc.max_abs_nearest = std::max(acc.max_abs_nearest, en);
    acc.max_abs_linear = std::max(acc.max_abs_linear, el);
    if (k >= floor) {
      acc.max_rel_nearest = std::max(acc.max_rel_nearest, en / k);
      acc.max_rel_linear = std::max(acc.max_rel_linear, el / k);
    }
  }
  return acc;
}

void apply_gridding_correction(View<Real> volume, const BlobParams& p, double padded_size) {
  FROST_EXPECTS(padded_size > 0, "padded size must be positive");
  const double ima = bessel_i(p.order, p.alpha);
  const double k0 = blob_fourier(0.0, p, ima);
  const Shape& s = volume.shape;
  const index_t cx = s.x / 2, cy = s.y / 2, cz = s.z / 2;
  // kappa depends on r^2 only, an integer: evaluate the Bessel series once per r^2, not per voxel.
  auto reach = [](index_t n, index_t c) { return std::max(c, n - 1 - c); };
  const index_t rx = reach(s.x, cx), ry = reach(s.y, cy), rz = reach(s.z, cz);
  std::vector<double> inv_kappa(static_cast<std::size_t>(rx * rx + ry * ry + rz * rz + 1));
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t r2 = 0; r2 < static_cast<std::int64_t>(inv_kappa.size()); ++r2)
    inv_kappa[static_cast<std::size_t>(r2)] = k0 / blob_fourier(std::sqrt(double(r2)) / padded_size, p, ima);
  for (index_t n = 0; n < s.n; ++n)
#pragma omp parallel for schedule(static)
    for (index_t z = 0; z < s.z; ++z)
      for (index_t y = 0; y < s.y; ++y)
        for (index_t x = 0; x < s.x; ++x) {
          const index_t r2 = (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz);
          Real& v = volume(x, y, z, n);
          v = static_cast<Real>(v * inv_kappa[static_cast<std::size_t>(r2)]);
        }
}

void apply_separable_gridding_correction(View<Real> volume, const BlobParams& p, double padded_size) {
  FROST_EXPECTS(padded_size > 0, "padded size must be positive");
  const double ima = bessel_i(p.order, p.alpha);
  const double k0 = blob_fourier_nd(0.0, p, ima, 1);
  const Shape& s = volume.shape;
  // One factor per axis and coordinate: kappa1(x - c) kappa1(y - c) kappa1(z - c).
  auto factors = [&](index_t n) {
    std::vector<double> f(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) f[static_cast<std::size_t>(i)] = k0 / blob_fourier_nd(double(i - n / 2) / padded_size, p, ima, 1);
    return f;
  };
  const std::vector<double> fx = factors(s.x), fy = factors(s.y), fz = factors(s.z);
  for (index_t n = 0; n < s.n; ++n)
#pragma omp parallel for schedule(static)
    for (index_t z = 0; z < s.z; ++z)
      for (index_t y = 0; y < s.y; ++y) {
        const double fyz = fy[static_cast<std::size_t>(y)] * fz[static_cast<std::size_t>(z)];
        for (index_t x = 0; x < s.x; ++x) {
          Real& v = volume(x, y, z, n);
          v = static_cast<Real>(v * fx[static_cast<std::size_t>(x)] * fyz);
        }
      }
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
