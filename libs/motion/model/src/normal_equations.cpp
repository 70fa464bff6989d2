// Weighted normal equations of the B-spline fit (docs/movie_align.md#fitting-the-coefficients):
// assembly per patch position, the rank check, and the regularisation ladder (second-difference
// ridge, flat axes, diagonal damping) for data that do not determine every coefficient.
#include "normal_equations.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "band_cholesky.hpp"
#include "bspline_support.hpp"
#include "difference_penalty.hpp"
#include "frost/core/error.hpp"
#include "spd_solver.hpp"

namespace frost::motion::detail {

namespace {

std::size_t distinct_count(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return static_cast<std::size_t>(std::unique(v.begin(), v.end()) - v.begin());
}

/// Measurements grouped by patch position: the design rows of a group share their 4x4 spatial
/// terms, so A^T W A is assembled as sum over groups of (time Gram matrix) ⊗ (spatial terms), about
/// ten times less work than 64x64 updates per equation.
struct PositionGroup {
  std::vector<std::size_t> members;
  int spatial_count = 0;
  int offset[16];   // (m+1)·lx + (l+1)
  double value[16]; // beta_y · beta_x
};

std::vector<PositionGroup> group_by_position(const std::vector<PatchMeasurement>& m, const std::vector<double>& w,
                                             const BSplineField& g) {
  std::map<std::pair<double, double>, std::size_t> index;
  std::vector<PositionGroup> groups;
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (!(w[i] > 0)) continue;
    const auto [it, added] = index.try_emplace({m[i].x, m[i].y}, groups.size());
    if (added) {
      PositionGroup p;
      const AxisTerms ax = axis_terms(m[i].x / g.hx, g.lx);
      const AxisTerms ay = axis_terms(m[i].y / g.hy, g.ly);
      for (int b = 0; b < ay.count; ++b)
        for (int c = 0; c < ax.count; ++c) {
          p.offset[p.spatial_count] = (ay.first + b + 1) * g.lx + (ax.first + c + 1);
          p.value[p.spatial_count] = ay.weight[b] * ax.weight[c];
          ++p.spatial_count;
        }
      groups.push_back(p);
    }
    groups[it->second].members.push_back(i);
  }
  return groups;
}

/// D^T D of the first or second differences along one axis.
SymmetricBand penalty(const BSplineField& g, Axis axis, int order) {
  SymmetricBand p(g.size(), coefficient_bandwidth(g));
  add_difference_penalty(p, g, axis, order, 1.0);
  return p;
}

/// A^T W A and A^T W b for both components.
struct NormalEquations {
  SymmetricBand matrix;
  std::vector<double> bx, by;
};

NormalEquations assemble(const std::vector<PatchMeasurement>& m, const std::vector<double>& w, const BSplineField& g) {
  const int K = g.size(), lt = g.lt, slice = g.lx * g.ly;
  NormalEquations e{SymmetricBand(K, coefficient_bandwidth(g)), std::vector<double>(static_cast<std::size_t>(K), 0.0),
                    std::vector<double>(static_cast<std::size_t>(K), 0.0)};
  SymmetricBand& normal = e.matrix;
  std::vector<double>& bx = e.bx;
  std::vector<double>& by = e.by;
  std::vector<double> gram(static_cast<std::size_t>(lt * lt)), rx(static_cast<std::size_t>(lt)),
      ry(static_cast<std::size_t>(lt));
  for (const PositionGroup& p : group_by_position(m, w, g)) {
    std::fill(gram.begin(), gram.end(), 0.0);
    std::fill(rx.begin(), rx.end(), 0.0);
    std::fill(ry.begin(), ry.end(), 0.0);
    for (std::size_t i : p.members) {
      const AxisTerms at = axis_terms(m[i].t / g.ht, lt);
      for (int a = 0; a < at.count; ++a) {
        const int n1 = at.first + a + 1;
        const double wa = w[i] * at.weight[a];
        rx[static_cast<std::size_t>(n1)] += wa * m[i].shift.x;
        ry[static_cast<std::size_t>(n1)] += wa * m[i].shift.y;
        for (int b = 0; b <= a; ++b) gram[static_cast<std::size_t>(n1 * lt + at.first + b + 1)] += wa * at.weight[b];
      }
    }
    for (int n1 = 0; n1 < lt; ++n1) {
      for (int s = 0; s < p.spatial_count; ++s) {
        const auto k = static_cast<std::size_t>(n1 * slice + p.offset[s]);
        bx[k] += rx[static_cast<std::size_t>(n1)] * p.value[s];
        by[k] += ry[static_cast<std::size_t>(n1)] * p.value[s];
      }
      for (int n2 = std::max(0, n1 - 3); n2 <= n1; ++n2) {
        const double gt = gram[static_cast<std::size_t>(n1 * lt + n2)];
        if (gt == 0.0) continue;
        for (int a = 0; a < p.spatial_count; ++a) {
          const int i = n1 * slice + p.offset[a];
          const double ga = gt * p.value[a];
          for (int b = 0; b < p.spatial_count; ++b) {
            const int j = n2 * slice + p.offset[b];
            if (j <= i) normal.at(i, j) += ga * p.value[b];
          }
        }
      }
    }
  }
  return e;
}

} // namespace

Coverage coverage_of(const std::vector<PatchMeasurement>& m, const std::vector<double>& w) {
  std::vector<double> xs, ys, ts;
  for (std::size_t i = 0; i < m.size(); ++i)
    if (w[i] > 0) {
      xs.push_back(m[i].x);
      ys.push_back(m[i].y);
      ts.push_back(m[i].t);
    }
  return {distinct_count(xs), distinct_count(ys), distinct_count(ts)};
}

WeightedSolution solve_weighted(const std::vector<PatchMeasurement>& m, const std::vector<double>& w,
                                const BSplineField& g, const BSplineFitOptions& o) {
  const int K = g.size();
  const NormalEquations e = assemble(m, w, g);
  const SymmetricBand& normal = e.matrix;
  const std::vector<double>& bx = e.bx;
  const std::vector<double>& by = e.by;
  WeightedSolution s;
  const double data_trace = normal.trace();
  bool weak = false;
  double weakest = 0;
  {
    const SpdSolver plain(normal);
    s.rank = plain.rank();
    // Full rank is not enough: a coefficient the patch centres barely reach (tiny diagonal) passes
    // the Jacobi-scaled rank check yet is set by amplified noise. Treat it like rank deficiency.
    weakest = plain.smallest_unscaled_pivot() / std::max(data_trace / K, 1e-300);
    weak = plain.full_rank() && weakest < o.weak_pivot;
    if (plain.full_rank() && !weak && !(o.lambda > 0)) {
      s.cx = plain.solve(bx);
      s.cy = plain.solve(by);
      return s;
    }
  }

  // Ridge lambda·||D2 c||², scaled to the data so that lambda is dimensionless.
  SymmetricBand ridge = penalty(g, Axis::X, 2);
  ridge.add_scaled(penalty(g, Axis::Y, 2), 1.0);
  ridge.add_scaled(penalty(g, Axis::T, 2), 1.0);
  s.regularised = true;
  s.lambda = o.lambda > 0 ? o.lambda : o.auto_lambda;
  if (s.rank < K) {
    s.notes.push_back("B-spline design matrix has rank " + std::to_string(s.rank) + " of " + std::to_string(K) +
                      ": second-difference ridge (lambda " + std::to_string(s.lambda) + ") added");
  } else if (weak && !(o.lambda > 0)) {
    char pivot[32];
    std::snprintf(pivot, sizeof pivot, "%.3g", weakest);
    s.notes.push_back(std::string("B-spline control points barely constrained by the patch centres (smallest pivot ") +
                      pivot + " of the mean diagonal): second-difference ridge (lambda " +
                      std::to_string(s.lambda) + ") added");
  }
  SymmetricBand system = normal;
  system.add_scaled(ridge, s.lambda * data_trace / std::max(ridge.trace(), 1e-300));
  auto factor = std::make_unique<SpdSolver>(system);

  if (!factor->full_rank()) {
    // Linear trends along an axis sampled at a single position are invisible to the data and to
    // D2: flatten them with a tiny first-difference penalty along that axis only.
    const Coverage c = coverage_of(m, w);
    const std::pair<Axis, std::size_t> axes[] = {{Axis::X, c.x}, {Axis::Y, c.y}, {Axis::T, c.t}};
    for (const auto& [axis, positions] : axes) {
      if (positions >= 2) continue;
      const SymmetricBand flat = penalty(g, axis, 1);
      system.add_scaled(flat, 1e-6 * data_trace / std::max(flat.trace(), 1e-300));
      s.notes.push_back(std::string("the measurements have a single position along ") +
                        (axis == Axis::X ? "x" : axis == Axis::Y ? "y" : "t") +
                        ": the B-spline field is kept flat along it");
    }
    factor = std::make_unique<SpdSolver>(system);
  }
  if (!factor->full_rank()) { // last resort: minimum-norm-like coefficients
    const double damping = 1e-9 * data_trace / K;
    for (int i = 0; i < K; ++i) system.at(i, i) += damping;
    factor = std::make_unique<SpdSolver>(system);
    s.notes.push_back("B-spline fit still singular after the ridge: small diagonal damping added");
  }
  if (!factor->full_rank())
    FROST_THROW(ExitCode::Runtime, "B-spline coefficient fit: the regularised system is singular");
  s.cx = factor->solve(bx);
  s.cy = factor->solve(by);
  return s;
}

} // namespace frost::motion::detail
