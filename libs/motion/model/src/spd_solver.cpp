// Fast path / exact path selection for the B-spline normal equations
// (docs/movie_align.md#fitting-the-coefficients: "Cholesky on the normal equations with a rank check").
#include "spd_solver.hpp"

namespace frost::motion::detail {

SpdSolver::SpdSolver(const SymmetricBand& matrix) : size_(matrix.size()) {
  band_ = std::make_unique<BandCholesky>(matrix);
  smallest_unscaled_pivot_ = band_->smallest_unscaled_pivot();
  if (band_->full_rank() && band_->smallest_pivot() >= kWellDetermined) {
    rank_ = size_;
    return;
  }
  band_.reset();
  dense_ = std::make_unique<PivotedCholesky>(matrix.dense(), size_);
  rank_ = dense_->rank();
}

std::vector<double> SpdSolver::solve(const std::vector<double>& b) const {
  return band_ ? band_->solve(b) : dense_->solve(b);
}

} // namespace frost::motion::detail
