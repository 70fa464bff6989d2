#pragma once
// Quadratic penalties on B-spline coefficients, as banded K x K matrices (K = lx·ly·lt, storage
// order of BSplineField): sum over one axis of the squared first or second differences.
#include "band_cholesky.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::motion::detail {

enum class Axis { X, Y, T };

/// Adds scale · D^T D to `matrix` (bandwidth >= coefficient_bandwidth), D = differences of
/// `order` (1 or 2) along `axis` (nothing when the axis has fewer than order + 1 control points).
void add_difference_penalty(SymmetricBand& matrix, const BSplineField& grid, Axis axis, int order,
                            double scale);

} // namespace frost::motion::detail
