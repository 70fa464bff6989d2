#pragma once
/// @file bspline_fit.hpp
/// @brief Fitting the B-spline field to the per-patch measurements
/// (docs/movie_align.md#fitting-the-coefficients): weighted least squares with a rank check, an
/// optional ridge on second differences, and robust rounds that reject outlier equations.
#include <string>
#include <vector>

#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// One equation pair (x and y) of the fit: the field at (x, y, t) should equal `shift`.
struct PatchMeasurement {
  int patch = 0;        ///< patch index (carried to the outputs only)
  double x = 0, y = 0;  ///< patch centre [processing px]
  double t = 0;         ///< aligned-frame index
  Vec2 shift;           ///< target: -L (residual model) or -D (total model) [processing px]
  double weight = 1;    ///< >= 0; 0 leaves the equation out (it still gets a fitted value)
};

struct BSplineFitOptions {
  /// --bspline-lambda: weight of the ridge lambda·||D2 c||² (second differences along x, y and
  /// t), relative to the data: the penalty matrix is scaled by trace(A^T W A)/trace(D2^T D2),
  /// so lambda = 1 weighs smoothness about as much as the data. 0: no ridge unless needed.
  double lambda = 0;
  /// Ridge used when the weighted design matrix is rank deficient (or weakly determined, below)
  /// and lambda is 0.
  double auto_lambda = 1e-3;
  /// A full-rank fit counts as weakly determined, and gets the automatic ridge, when the smallest
  /// unscaled Cholesky pivot of A^T W A is below this fraction of its mean diagonal: a control
  /// point whose basis barely reaches any patch centre (e.g. the corners with 7x7 heavily
  /// overlapping 500 px patches on 1024 px and 6x6 control points: 4e-16) is then fixed by
  /// measurement noise amplified a million-fold (corner shifts of 1000+ px). Well-posed grids
  /// (patches spread to the edges, Falcon/K3 defaults) sit at 1e-10 to 1e-8.
  double weak_pivot = 1e-11;
  double outlier_sigma = 3;  ///< --outlier-sigma k: reject |e| > k·sigma (x or y)
  int outlier_rounds = 10;   ///< --outlier-rounds: flagging rounds (0: plain weighted LS)
  /// Residuals up to this size [px] are never outliers, whatever sigma is: noise-free data have
  /// sigma at round-off level and would otherwise lose random equations.
  double min_outlier_residual = 0.01;
};

struct BSplineFitResult {
  BSplineField field;                 ///< the grid passed in, with cx, cy filled
  std::vector<Vec2> fitted;           ///< field at each measurement
  std::vector<unsigned char> outlier; ///< 1 where the robust rounds rejected the equation
  int rejected = 0;                   ///< number of outliers (_frostOutliersLocal)
  int rounds = 0;                     ///< flagging rounds run
  int equations = 0;                  ///< measurements used (weight > 0, finite) before rejection
  int rank = 0;                       ///< numerical rank of A^T W A at the last solve (of field.size())
  bool regularised = false;           ///< a ridge (given or automatic) was part of the last solve
  double lambda = 0;                  ///< relative ridge weight of the last solve (0: none)
  double rmsd = 0;                    ///< sqrt(sum w|e|² / sum w) over accepted equations [px]
  double shift_p2_5 = 0, shift_p97_5 = 0; ///< percentiles of |fitted| over all measurements [px]
  std::vector<std::string> warnings;  ///< for the log (too few patches, rank deficiency, ...)
};

/// @brief Solves for grid.cx, grid.cy (grid from BSplineField::make; its coefficients are
/// ignored). Each round: weighted normal equations in double, Jacobi-scaled banded Cholesky
/// (bandwidth 3·lx·ly + 3·lx + 3), with a pivoted dense Cholesky as the exact rank check whenever
/// a banded pivot is tiny; when rank deficient, weakly determined (options.weak_pivot) or
/// lambda > 0 the second-difference ridge is
/// added, and if the data still leave an axis undetermined (fewer than two distinct positions
/// along it) a tiny first-difference penalty along that axis makes the field flat there. Then
/// residuals, sigma over the accepted equations, new outliers; stops when none is new or after
/// outlier_rounds rounds, always re-solving after the last flagging. frost::Error(Runtime) when
/// no usable equation is left (the caller then falls back to the global model,
/// docs/movie_align.md#fitting-the-coefficients).
BSplineFitResult fit_bspline_field(const std::vector<PatchMeasurement>& measurements, const BSplineField& grid,
                                   const BSplineFitOptions& options = {});

/// @brief Percentile p (0..100) with linear interpolation between order statistics (numpy's
/// default); 0 for an empty list.
double percentile(std::vector<double> values, double p);

} // namespace frost::motion
