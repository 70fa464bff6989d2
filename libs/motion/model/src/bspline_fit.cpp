// Coefficient fit of the B-spline field (docs/movie_align.md#fitting-the-coefficients) with the robust
// rounds of the global stage item 1: sigma over the accepted equations only, iterate until no new outlier,
// re-solve after the last flagging (Xmipp's EquationSystemSolver stops after 2 rounds and keeps rejected
// rows in sigma: quirk 6 of docs/movie_align.md#known-quirks-of-the-reference-programs-we-do-not-copy).
#include "frost/motion/bspline_fit.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "bspline_support.hpp"
#include "frost/core/error.hpp"
#include "normal_equations.hpp"

namespace frost::motion {

namespace {

/// The non-zero entries of one row of the design matrix A (at most 4x4x4).
struct DesignRow {
  int count = 0;
  int index[64];
  double value[64];
};

DesignRow design_row(const BSplineField& g, double x, double y, double t) {
  const AxisTerms ax = axis_terms(x / g.hx, g.lx);
  const AxisTerms ay = axis_terms(y / g.hy, g.ly);
  const AxisTerms at = axis_terms(t / g.ht, g.lt);
  DesignRow r;
  for (int a = 0; a < at.count; ++a)
    for (int b = 0; b < ay.count; ++b)
      for (int c = 0; c < ax.count; ++c) {
        r.index[r.count] = g.index(at.first + a, ay.first + b, ax.first + c);
        r.value[r.count] = at.weight[a] * ay.weight[b] * ax.weight[c];
        ++r.count;
      }
  return r;
}

double row_times(const DesignRow& r, const std::vector<double>& c) {
  double s = 0;
  for (int k = 0; k < r.count; ++k) s += r.value[k] * c[static_cast<std::size_t>(r.index[k])];
  return s;
}

/// Standard deviation of the residuals of the accepted equations (sample mean removed).
double sigma_of(const std::vector<double>& e, const std::vector<double>& w) {
  double sum = 0, sum2 = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < e.size(); ++i)
    if (w[i] > 0) {
      sum += e[i];
      sum2 += e[i] * e[i];
      ++n;
    }
  if (n < 2) return 0;
  const double mean = sum / static_cast<double>(n);
  return std::sqrt(std::max(0.0, sum2 / static_cast<double>(n) - mean * mean));
}

bool finite(const PatchMeasurement& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.t) && std::isfinite(p.shift.x) &&
         std::isfinite(p.shift.y) && std::isfinite(p.weight);
}

} // namespace

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double position = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(position));
  const std::size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (position - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

BSplineFitResult fit_bspline_field(const std::vector<PatchMeasurement>& m, const BSplineField& grid,
                                   const BSplineFitOptions& o) {
  FROST_EXPECTS(grid.lx >= 3 && grid.ly >= 3 && grid.lt >= 3 && grid.hx > 0 && grid.hy > 0 && grid.ht > 0,
                "fit_bspline_field: grid from BSplineField::make");
  BSplineFitResult result;
  result.field = grid;
  std::vector<DesignRow> rows(m.size());
  std::vector<double> w(m.size(), 0.0);
  int skipped = 0;
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (!finite(m[i])) {
      ++skipped;
      continue;
    }
    rows[i] = design_row(grid, m[i].x, m[i].y, m[i].t);
    w[i] = std::max(0.0, m[i].weight);
    if (w[i] > 0) ++result.equations;
  }
  if (skipped > 0) result.warnings.push_back(std::to_string(skipped) + " non-finite patch measurements ignored");
  if (result.equations == 0) FROST_THROW(ExitCode::Runtime, "B-spline coefficient fit: no usable patch measurement");
  {
    const detail::Coverage c = detail::coverage_of(m, w);
    if (c.x <= static_cast<std::size_t>(grid.lx) || c.y <= static_cast<std::size_t>(grid.ly))
      result.warnings.push_back("more control points than patches (" + std::to_string(c.x) + "x" +
                                std::to_string(c.y) + " patch positions for " + std::to_string(grid.lx) + "x" +
                                std::to_string(grid.ly) + " control points)");
  }

  result.outlier.assign(m.size(), 0);
  std::vector<double> ex(m.size()), ey(m.size());
  detail::WeightedSolution s;
  const auto residuals = [&] {
    for (std::size_t i = 0; i < m.size(); ++i) {
      ex[i] = row_times(rows[i], s.cx) - m[i].shift.x;
      ey[i] = row_times(rows[i], s.cy) - m[i].shift.y;
    }
  };
  s = detail::solve_weighted(m, w, grid, o);
  residuals();
  for (int round = 0; round < o.outlier_rounds; ++round) {
    const double tx = std::max(o.outlier_sigma * sigma_of(ex, w), o.min_outlier_residual);
    const double ty = std::max(o.outlier_sigma * sigma_of(ey, w), o.min_outlier_residual);
    int flagged = 0;
    for (std::size_t i = 0; i < m.size(); ++i)
      if (w[i] > 0 && (std::abs(ex[i]) > tx || std::abs(ey[i]) > ty)) {
        w[i] = 0;
        result.outlier[i] = 1;
        ++flagged;
      }
    if (flagged == 0) break;
    result.rounds = round + 1;
    result.rejected += flagged;
    if (result.rejected == result.equations)
      FROST_THROW(ExitCode::Runtime, "B-spline coefficient fit: every patch measurement was rejected");
    s = detail::solve_weighted(m, w, grid, o); // always re-solve after flagging
    residuals();
  }

  result.field.cx = s.cx;
  result.field.cy = s.cy;
  result.rank = s.rank;
  result.regularised = s.regularised;
  result.lambda = s.lambda;
  result.warnings.insert(result.warnings.end(), s.notes.begin(), s.notes.end());

  double sum_w = 0, sum_we2 = 0;
  std::vector<double> magnitude;
  magnitude.reserve(m.size());
  result.fitted.resize(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) {
    const Vec2 f = finite(m[i]) ? Vec2{row_times(rows[i], s.cx), row_times(rows[i], s.cy)}
                                : result.field.evaluate(m[i].x, m[i].y, m[i].t);
    result.fitted[i] = f;
    if (std::isfinite(f.x) && std::isfinite(f.y)) magnitude.push_back(std::hypot(f.x, f.y));
    if (w[i] > 0) {
      sum_w += w[i];
      sum_we2 += w[i] * (ex[i] * ex[i] + ey[i] * ey[i]);
    }
  }
  result.rmsd = sum_w > 0 ? std::sqrt(sum_we2 / sum_w) : 0;
  result.shift_p2_5 = percentile(magnitude, 2.5);
  result.shift_p97_5 = percentile(magnitude, 97.5);
  return result;
}

} // namespace frost::motion
