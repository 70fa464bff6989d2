#pragma once
// Pivoted Cholesky factorisation of a small dense symmetric positive semi-definite matrix: the
// exact rank check of docs/movie_align.md#fitting-the-coefficients when the banded fast path sees a
// tiny pivot.
#include <vector>

namespace frost::motion::detail {

class PivotedCholesky {
public:
  /// Factors the n x n row-major matrix `a` (only the lower triangle is read) after Jacobi
  /// scaling to a unit diagonal. Factorisation stops when the largest remaining pivot is
  /// <= relative_tolerance: the directions left over are not determined by the matrix.
  PivotedCholesky(std::vector<double> a, int n, double relative_tolerance = 1e-12);

  int rank() const { return rank_; }
  bool full_rank() const { return rank_ == n_; }
  /// x with a·x = b; precondition full_rank().
  std::vector<double> solve(const std::vector<double>& b) const;

private:
  int n_ = 0;
  int rank_ = 0;
  std::vector<double> l_;     // lower-triangular factor of the permuted, scaled matrix
  std::vector<int> perm_;     // position k of the factor holds original index perm_[k]
  std::vector<double> scale_; // Jacobi scaling D^-1/2
};

} // namespace frost::motion::detail
