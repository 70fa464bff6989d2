#pragma once
// Solver for the fit's normal equations: the banded Cholesky when all its pivots are clearly
// non-zero (the usual case, K·b² work), else the pivoted dense Cholesky for an exact rank.
#include <memory>
#include <vector>

#include "band_cholesky.hpp"
#include "pivoted_cholesky.hpp"

namespace frost::motion::detail {

class SpdSolver {
public:
  /// Smallest scaled squared pivot for which the banded factor is trusted as it is.
  static constexpr double kWellDetermined = 1e-8;

  explicit SpdSolver(const SymmetricBand& matrix);
  int rank() const { return rank_; }
  bool full_rank() const { return rank_ == size_; }
  /// BandCholesky::smallest_unscaled_pivot of the matrix (from the banded factorisation, which
  /// is always tried first).
  double smallest_unscaled_pivot() const { return smallest_unscaled_pivot_; }
  /// x with A·x = b; precondition full_rank().
  std::vector<double> solve(const std::vector<double>& b) const;

private:
  int size_ = 0;
  int rank_ = 0;
  double smallest_unscaled_pivot_ = 0;
  std::unique_ptr<BandCholesky> band_;
  std::unique_ptr<PivotedCholesky> dense_;
};

} // namespace frost::motion::detail
