// RELION's third-order polynomial motion model: evaluation, least-squares fit, and the samples of
// a frost model it is fitted to (docs/movie_align.md#relion-and-xmipp-exports).
#include "frost/motion/relion_polynomial.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>

#include "frost/core/error.hpp"
#include "pivoted_cholesky.hpp"

namespace frost::motion {

namespace {

/// The 18 basis values at (t, x', y') in coefficient order: term 3k + p is t^(p+1) · m_k.
std::array<double, kRelionPolynomialTerms> basis(double t, double xn, double yn) {
  const std::array<double, 6> m = {1.0, xn, xn * xn, yn, yn * yn, xn * yn};
  const std::array<double, 3> tp = {t, t * t, t * t * t};
  std::array<double, kRelionPolynomialTerms> b{};
  for (std::size_t k = 0; k < 6; ++k)
    for (std::size_t p = 0; p < 3; ++p) b[3 * k + p] = tp[p] * m[k];
  return b;
}

} // namespace

Vec2 RelionPolynomial::evaluate(double t, double xn, double yn) const {
  const auto b = basis(t, xn, yn);
  Vec2 s;
  for (std::size_t i = 0; i < b.size(); ++i) {
    s.x += cx[i] * b[i];
    s.y += cy[i] * b[i];
  }
  return s;
}

RelionPolynomialFit fit_relion_polynomial(const std::vector<PolynomialSample>& samples) {
  RelionPolynomialFit fit;
  fit.samples = static_cast<int>(samples.size());
  // t = 0 rows are all zero (no constant term in time), so only frames after the first count
  // towards the temporal degree.
  std::set<double> times;
  for (const PolynomialSample& s : samples)
    if (s.t != 0) times.insert(s.t);
  fit.time_degree = static_cast<int>(std::min<std::size_t>(3, times.size()));

  // Columns fitted: time powers up to the degree (the others are not determined and stay 0).
  std::vector<std::size_t> active;
  for (std::size_t i = 0; i < static_cast<std::size_t>(kRelionPolynomialTerms); ++i)
    if (static_cast<int>(i % 3) < fit.time_degree) active.push_back(i);
  const std::size_t n = active.size();
  if (n > 0) {
    // Normal equations A^T A c = A^T s for both axes at once (18 unknowns: forming them is
    // cheap and the Jacobi-scaled pivoted Cholesky both solves and checks the rank).
    std::vector<double> ata(n * n, 0.0), atx(n, 0.0), aty(n, 0.0);
    std::vector<double> row(n);
    for (const PolynomialSample& s : samples) {
      const auto b = basis(s.t, s.xn, s.yn);
      for (std::size_t i = 0; i < n; ++i) row[i] = b[active[i]];
      for (std::size_t i = 0; i < n; ++i) {
        atx[i] += row[i] * s.shift.x;
        aty[i] += row[i] * s.shift.y;
        for (std::size_t j = 0; j <= i; ++j) ata[i * n + j] += row[i] * row[j];
      }
    }
    const detail::PivotedCholesky chol(ata, static_cast<int>(n));
    if (!chol.full_rank())
      FROST_THROW(ExitCode::Runtime, "RELION polynomial fit: the " + std::to_string(samples.size()) +
                                         " samples determine only " + std::to_string(chol.rank()) + " of the " +
                                         std::to_string(n) + " coefficients per axis (need >= 3 distinct x and y)");
    const std::vector<double> cx = chol.solve(atx), cy = chol.solve(aty);
    for (std::size_t i = 0; i < n; ++i) {
      fit.polynomial.cx[active[i]] = cx[i];
      fit.polynomial.cy[active[i]] = cy[i];
    }
  }

  double ex = 0, ey = 0;
  for (const PolynomialSample& s : samples) {
    const Vec2 f = fit.polynomial.evaluate(s.t, s.xn, s.yn);
    ex += (s.shift.x - f.x) * (s.shift.x - f.x);
    ey += (s.shift.y - f.y) * (s.shift.y - f.y);
  }
  if (!samples.empty()) {
    const double m = static_cast<double>(samples.size());
    fit.rmsd_x = std::sqrt(ex / m);
    fit.rmsd_y = std::sqrt(ey / m);
    fit.rmsd = std::sqrt((ex + ey) / m);
  }
  return fit;
}

std::vector<PolynomialSample> relion_polynomial_samples(const MotionModel& model, double width, double height,
                                                        int grid) {
  FROST_EXPECTS(width > 0 && height > 0 && grid >= 1, "relion_polynomial_samples: frame size and grid");
  std::vector<PolynomialSample> samples;
  if (!model.local || model.frames() == 0) return samples;
  const Vec2 g0 = model.global_shift(0);
  samples.reserve(static_cast<std::size_t>(model.frames()) * static_cast<std::size_t>(grid * grid));
  for (int t = 0; t < model.frames(); ++t) {
    const Vec2 g = model.global_shift(t);
    // The global shift RELION stores for this frame (data_global_shift), raw px.
    const Vec2 global{(g.x - g0.x) * model.binning, (g.y - g0.y) * model.binning};
    for (int j = 0; j < grid; ++j)
      for (int i = 0; i < grid; ++i) {
        const double x = (i + 0.5) * width / grid, y = (j + 0.5) * height / grid;
        const Vec2 s = model.shift_raw(x, y, t), s0 = model.shift_raw(x, y, 0);
        PolynomialSample p;
        p.t = t;
        p.xn = x / width - 0.5;
        p.yn = y / height - 0.5;
        p.shift = {(s.x - s0.x) - global.x, (s.y - s0.y) - global.y};
        samples.push_back(p);
      }
  }
  return samples;
}

} // namespace frost::motion
