#pragma once
// One weighted least-squares solve of the B-spline fit
// (docs/movie_align.md#fitting-the-coefficients), shared by the robust rounds of fit_bspline_field.
#include <string>
#include <vector>

#include "frost/motion/bspline_fit.hpp"

namespace frost::motion::detail {

struct WeightedSolution {
  std::vector<double> cx, cy;      ///< coefficients in storage order
  int rank = 0;                    ///< numerical rank of A^T W A
  bool regularised = false;        ///< the ridge was part of the solve
  double lambda = 0;               ///< its relative weight
  std::vector<std::string> notes;  ///< what the regularisation ladder did
};

/// Distinct measurement positions along x, y and t among the equations with w > 0.
struct Coverage {
  std::size_t x = 0, y = 0, t = 0;
};
Coverage coverage_of(const std::vector<PatchMeasurement>& m, const std::vector<double>& w);

/// Minimises sum_i w_i |A_i c - shift_i|² (+ the ridge when A^T W A is rank deficient, weakly
/// determined (options.weak_pivot) or options.lambda > 0; + a tiny first-difference penalty along axes with a single position, then
/// diagonal damping, while still singular). frost::Error(Runtime) if it stays singular.
WeightedSolution solve_weighted(const std::vector<PatchMeasurement>& m, const std::vector<double>& w,
                                const BSplineField& grid, const BSplineFitOptions& options);

} // namespace frost::motion::detail
