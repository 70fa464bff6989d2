#pragma once
// The control indices along one axis whose basis functions can be non-zero at a point, shared by
// the evaluation and by the design matrix of the fit.
#include <cmath>

#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// Control indices first ... first+count-1 (count <= 4) with their values beta(u - index).
struct AxisTerms {
  int first = 0;
  int count = 0;
  double weight[4] = {0, 0, 0, 0};
};

/// beta(u - k) is non-zero only for k in (u - 2, u + 2), i.e. k = floor(u) - 1 ... floor(u) + 2;
/// that window is intersected with the grid's indices -1 ... controls-2.
inline AxisTerms axis_terms(double u, int controls) {
  AxisTerms a;
  if (!(u > -4.0 && u < controls + 2.0)) return a; // outside every support (or NaN)
  const int k0 = static_cast<int>(std::floor(u)) - 1;
  const int lo = k0 < -1 ? -1 : k0;
  const int hi = k0 + 3 > controls - 2 ? controls - 2 : k0 + 3;
  a.first = lo;
  a.count = hi >= lo ? hi - lo + 1 : 0;
  for (int i = 0; i < a.count; ++i) a.weight[i] = bspline_basis(u - (lo + i));
  return a;
}

/// Largest storage-index distance between two coefficients that share a point (each index
/// within +-3): the bandwidth of the fit's normal matrix.
inline int coefficient_bandwidth(const BSplineField& g) { return 3 * g.lx * g.ly + 3 * g.lx + 3; }

} // namespace frost::motion
