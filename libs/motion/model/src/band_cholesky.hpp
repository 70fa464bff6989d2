#pragma once
// Symmetric banded matrices and their Cholesky factorisation with a rank check. The normal
// matrix of the B-spline fit couples only coefficients within +-3 along every axis, so in storage
// order its bandwidth is 3·lx·ly + 3·lx + 3: a banded factorisation costs K·b² instead of K³/3.
#include <vector>

namespace frost::motion::detail {

/// Lower band of a symmetric n x n matrix: entries (i, j) with 0 <= i - j <= bandwidth.
class SymmetricBand {
public:
  SymmetricBand(int n, int bandwidth);
  int size() const { return n_; }
  int bandwidth() const { return b_; }
  /// Entry (i, j) of the lower band, j <= i, i - j <= bandwidth.
  double& at(int i, int j) { return v_[offset(i, j)]; }
  double at(int i, int j) const { return v_[offset(i, j)]; }
  /// Adds v to (i, j) and (j, i) (stored once); |i - j| must be within the band.
  void add(int i, int j, double v) { i >= j ? at(i, j) += v : at(j, i) += v; }
  void add_scaled(const SymmetricBand& other, double scale);
  double trace() const;
  /// The full n x n matrix, row-major.
  std::vector<double> dense() const;

private:
  std::size_t stride() const { return static_cast<std::size_t>(b_) + 1; }
  std::size_t offset(int i, int j) const {
    return static_cast<std::size_t>(i) * stride() + static_cast<std::size_t>(b_ + j - i);
  }
  int n_, b_;
  std::vector<double> v_;
};

/// Cholesky of D^-1/2 A D^-1/2 without pivoting (Jacobi scaling: B-spline normal matrices are
/// tensor products whose condition numbers multiply across axes, and corner coefficients with
/// small supports would look like vanishing pivots). A pivot <= relative_tolerance (of the unit
/// diagonal) is dropped and counted out of the rank. Without pivoting that count is only
/// approximate for singular matrices (round-off in later pivots), hence smallest_pivot(): callers
/// trust the factor only when it is clearly non-zero (see SpdSolver).
class BandCholesky {
public:
  explicit BandCholesky(SymmetricBand a, double relative_tolerance = 1e-12);
  int rank() const { return rank_; }
  bool full_rank() const { return rank_ == factor_.size(); }
  /// Smallest squared pivot of the scaled matrix (1 = perfectly conditioned diagonal).
  double smallest_pivot() const { return smallest_pivot_; }
  /// Smallest squared pivot of the unscaled matrix (scaled pivot times the diagonal entry): the
  /// data weight left on a coefficient once its neighbours are fixed. Jacobi scaling hides
  /// coefficients that the data barely touch; this does not.
  double smallest_unscaled_pivot() const { return smallest_unscaled_pivot_; }
  /// x with A·x = b; precondition full_rank().
  std::vector<double> solve(const std::vector<double>& b) const;

private:
  SymmetricBand factor_;
  std::vector<double> scale_;
  int rank_ = 0;
  double smallest_pivot_ = 0;
  double smallest_unscaled_pivot_ = 0;
};

} // namespace frost::motion::detail
