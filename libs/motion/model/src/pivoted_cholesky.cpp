// Right-looking Cholesky with diagonal pivoting (largest remaining diagonal first), so that a
// rank-deficient normal matrix shows vanishing pivots at the end instead of amplified noise.
#include "pivoted_cholesky.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "frost/core/error.hpp"

namespace frost::motion::detail {

PivotedCholesky::PivotedCholesky(std::vector<double> a, int n, double relative_tolerance)
    : n_(n), l_(std::move(a)), perm_(static_cast<std::size_t>(n)), scale_(static_cast<std::size_t>(n)) {
  FROST_EXPECTS(n >= 0 && l_.size() == static_cast<std::size_t>(n) * static_cast<std::size_t>(n),
                "PivotedCholesky: matrix size");
  const auto N = static_cast<std::size_t>(n);
  auto at = [&](std::size_t i, std::size_t j) -> double& { return l_[i * N + j]; };
  for (std::size_t i = 0; i < N; ++i) {
    perm_[i] = static_cast<int>(i);
    scale_[i] = at(i, i) > 0 ? 1.0 / std::sqrt(at(i, i)) : 1.0;
  }
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j <= i; ++j) at(i, j) *= scale_[i] * scale_[j];

  std::vector<double> column(N);
  rank_ = 0;
  for (std::size_t k = 0; k < N; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < N; ++i)
      if (at(i, i) > at(p, p)) p = i;
    if (!(at(p, p) > relative_tolerance)) break; // remaining Schur complement is numerically zero
    if (p != k) {
      // Symmetric swap of k and p within the lower triangle.
      for (std::size_t j = 0; j < k; ++j) std::swap(at(k, j), at(p, j));
      std::swap(at(k, k), at(p, p));
      for (std::size_t i = k + 1; i < p; ++i) std::swap(at(i, k), at(p, i));
      for (std::size_t i = p + 1; i < N; ++i) std::swap(at(i, k), at(i, p));
      std::swap(perm_[k], perm_[p]);
    }
    const double d = std::sqrt(at(k, k));
    at(k, k) = d;
    for (std::size_t i = k + 1; i < N; ++i) column[i] = at(i, k) /= d;
    for (std::size_t i = k + 1; i < N; ++i) {
      const double lik = column[i];
      double* row = &at(i, 0);
      for (std::size_t j = k + 1; j <= i; ++j) row[j] -= lik * column[j];
    }
    ++rank_;
  }
}

std::vector<double> PivotedCholesky::solve(const std::vector<double>& b) const {
  FROST_EXPECTS(full_rank(), "PivotedCholesky::solve on a rank-deficient matrix");
  FROST_EXPECTS(b.size() == static_cast<std::size_t>(n_), "PivotedCholesky::solve: right-hand side size");
  const auto N = static_cast<std::size_t>(n_);
  std::vector<double> z(N);
  for (std::size_t k = 0; k < N; ++k) {
    const auto original = static_cast<std::size_t>(perm_[k]);
    z[k] = b[original] * scale_[original];
  }
  for (std::size_t i = 0; i < N; ++i) { // L z' = z
    double s = z[i];
    for (std::size_t j = 0; j < i; ++j) s -= l_[i * N + j] * z[j];
    z[i] = s / l_[i * N + i];
  }
  for (std::size_t i = N; i-- > 0;) { // L^T w = z'
    double s = z[i];
    for (std::size_t j = i + 1; j < N; ++j) s -= l_[j * N + i] * z[j];
    z[i] = s / l_[i * N + i];
  }
  std::vector<double> x(N);
  for (std::size_t k = 0; k < N; ++k) {
    const auto original = static_cast<std::size_t>(perm_[k]);
    x[original] = z[k] * scale_[original];
  }
  return x;
}

} // namespace frost::motion::detail
