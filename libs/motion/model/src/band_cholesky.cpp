// Row-oriented (Cholesky-Banachiewicz) banded factorisation: each entry is a dot product of two
// contiguous stretches of earlier rows, which vectorises and stays in cache.
#include "band_cholesky.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "frost/core/error.hpp"

namespace frost::motion::detail {

namespace {

/// Dot product with four independent partial sums: a single running sum is bound by the add
/// latency (the compiler may not reassociate), this is several times faster and still deterministic.
double dot(const double* a, const double* b, int n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int k = 0;
  for (; k + 4 <= n; k += 4) {
    s0 += a[k] * b[k];
    s1 += a[k + 1] * b[k + 1];
    s2 += a[k + 2] * b[k + 2];
    s3 += a[k + 3] * b[k + 3];
  }
  for (; k < n; ++k) s0 += a[k] * b[k];
  return (s0 + s1) + (s2 + s3);
}

} // namespace

SymmetricBand::SymmetricBand(int n, int bandwidth)
    : n_(n), b_(std::max(0, std::min(bandwidth, n - 1))), v_(static_cast<std::size_t>(n) * stride(), 0.0) {}

void SymmetricBand::add_scaled(const SymmetricBand& other, double scale) {
  FROST_EXPECTS(other.n_ == n_ && other.b_ == b_, "SymmetricBand::add_scaled: shapes differ");
  for (std::size_t k = 0; k < v_.size(); ++k) v_[k] += scale * other.v_[k];
}

std::vector<double> SymmetricBand::dense() const {
  std::vector<double> m(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_), 0.0);
  for (int i = 0; i < n_; ++i)
    for (int j = std::max(0, i - b_); j <= i; ++j) {
      m[static_cast<std::size_t>(i) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(j)] = at(i, j);
      m[static_cast<std::size_t>(j) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(i)] = at(i, j);
    }
  return m;
}

double SymmetricBand::trace() const {
  double s = 0;
  for (int i = 0; i < n_; ++i) s += at(i, i);
  return s;
}

BandCholesky::BandCholesky(SymmetricBand a, double relative_tolerance)
    : factor_(std::move(a)), scale_(static_cast<std::size_t>(factor_.size())) {
  const int n = factor_.size(), b = factor_.bandwidth();
  for (int i = 0; i < n; ++i) {
    const double d = factor_.at(i, i);
    scale_[static_cast<std::size_t>(i)] = d > 0 ? 1.0 / std::sqrt(d) : 1.0;
  }
  for (int i = 0; i < n; ++i)
    for (int j = std::max(0, i - b); j <= i; ++j)
      factor_.at(i, j) *= scale_[static_cast<std::size_t>(i)] * scale_[static_cast<std::size_t>(j)];

  rank_ = 0;
  smallest_pivot_ = n > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  smallest_unscaled_pivot_ = smallest_pivot_;
  for (int i = 0; i < n; ++i) {
    const int first = std::max(0, i - b);
    double* row_i = &factor_.at(i, first);
    for (int j = first; j <= i; ++j) {
      // s = A(i, j) - sum_{k < j} L(i, k) L(j, k), over the columns both rows hold.
      const int k0 = std::max(first, j - b);
      const double* li = &factor_.at(i, k0);
      const double* lj = &factor_.at(j, k0);
      const double s = row_i[j - first] - dot(li, lj, j - k0);
      if (j < i) {
        const double pivot = factor_.at(j, j);
        row_i[j - first] = pivot > 0 ? s / pivot : 0.0; // dropped direction: column is zero
        continue;
      }
      smallest_pivot_ = std::min(smallest_pivot_, s);
      const double d = scale_[static_cast<std::size_t>(i)];
      smallest_unscaled_pivot_ = std::min(smallest_unscaled_pivot_, s / (d * d));
      if (s > relative_tolerance) {
        row_i[j - first] = std::sqrt(s);
        ++rank_;
      } else {
        row_i[j - first] = 0.0;
      }
    }
  }
}

std::vector<double> BandCholesky::solve(const std::vector<double>& rhs) const {
  FROST_EXPECTS(full_rank(), "BandCholesky::solve on a rank-deficient matrix");
  const int n = factor_.size(), b = factor_.bandwidth();
  FROST_EXPECTS(rhs.size() == static_cast<std::size_t>(n), "BandCholesky::solve: right-hand side size");
  std::vector<double> z(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) { // L z = D^-1/2 rhs
    double s = rhs[static_cast<std::size_t>(i)] * scale_[static_cast<std::size_t>(i)];
    for (int k = std::max(0, i - b); k < i; ++k) s -= factor_.at(i, k) * z[static_cast<std::size_t>(k)];
    z[static_cast<std::size_t>(i)] = s / factor_.at(i, i);
  }
  for (int i = n - 1; i >= 0; --i) { // L^T w = z
    double s = z[static_cast<std::size_t>(i)];
    for (int k = i + 1; k <= std::min(n - 1, i + b); ++k) s -= factor_.at(k, i) * z[static_cast<std::size_t>(k)];
    z[static_cast<std::size_t>(i)] = s / factor_.at(i, i);
  }
  for (int i = 0; i < n; ++i) z[static_cast<std::size_t>(i)] *= scale_[static_cast<std::size_t>(i)];
  return z;
}

} // namespace frost::motion::detail
