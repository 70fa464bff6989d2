#include "frost/motion/shift_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "frost/core/error.hpp"
#include "frost/motion/pair_graph.hpp"

namespace frost::motion {

namespace {

bool connects(int frames, const std::vector<PairEquation>& eq, const std::vector<char>& use) {
  FrameComponents c(frames);
  for (std::size_t k = 0; k < eq.size(); ++k)
    if (use[k]) c.join(eq[k].i, eq[k].j);
  return c.components() <= 1;
}

// In-place Cholesky solve of the symmetric positive definite n x n system a·x = b (row-major);
// b holds two right-hand sides (x and y) interleaved.
void cholesky_solve(std::vector<double>& a, std::vector<double>& b, int n) {
  auto at = [&](int r, int c) -> double& { return a[static_cast<std::size_t>(r) * static_cast<std::size_t>(n) + static_cast<std::size_t>(c)]; };
  for (int c = 0; c < n; ++c) {
    double d = at(c, c);
    for (int k = 0; k < c; ++k) d -= at(c, k) * at(c, k);
    FROST_EXPECTS(d > 0, "least-squares normal matrix is not positive definite");
    const double l = std::sqrt(d);
    at(c, c) = l;
    for (int r = c + 1; r < n; ++r) {
      double s = at(r, c);
      for (int k = 0; k < c; ++k) s -= at(r, k) * at(c, k);
      at(r, c) = s / l;
    }
  }
  for (int rhs = 0; rhs < 2; ++rhs) {
    auto v = [&](int r) -> double& { return b[static_cast<std::size_t>(2 * r + rhs)]; };
    for (int r = 0; r < n; ++r) { // L y = b
      double s = v(r);
      for (int k = 0; k < r; ++k) s -= at(r, k) * v(k);
      v(r) = s / at(r, r);
    }
    for (int r = n - 1; r >= 0; --r) { // L^T x = y
      double s = v(r);
      for (int k = r + 1; k < n; ++k) s -= at(k, r) * v(k);
      v(r) = s / at(r, r);
    }
  }
}

struct Spread {
  double mean = 0, var = 0;
};

Spread spread(const std::vector<double>& v) {
  Spread s;
  if (v.empty()) return s;
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  for (double x : v) s.var += (x - s.mean) * (x - s.mean);
  s.var /= static_cast<double>(v.size());
  return s;
}

} // namespace

std::vector<Vec2> least_squares_positions(int frames, const std::vector<PairEquation>& equations,
                                          const std::vector<char>& use) {
  FROST_EXPECTS(frames >= 1 && use.size() == equations.size(), "bad least-squares problem");
  FrameComponents comp(frames);
  for (std::size_t k = 0; k < equations.size(); ++k)
    if (use[k]) comp.join(equations[k].i, equations[k].j);
  // Each component's lowest frame is pinned at 0 (the gauge d_0 = 0 when all are connected).
  std::vector<int> unknown(static_cast<std::size_t>(frames), -1);
  int n = 0;
  for (int f = 0; f < frames; ++f)
    if (comp.find(f) != f) unknown[static_cast<std::size_t>(f)] = n++;
  std::vector<Vec2> d(static_cast<std::size_t>(frames));
  if (n == 0) return d;

  std::vector<double> a(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0.0);
  std::vector<double> b(2 * static_cast<std::size_t>(n), 0.0);
  for (std::size_t k = 0; k < equations.size(); ++k) {
    if (!use[k]) continue;
    const PairEquation& e = equations[k];
    FROST_EXPECTS(e.i != e.j && e.i >= 0 && e.j >= 0 && e.i < frames && e.j < frames, "bad pair equation");
    const int ui = unknown[static_cast<std::size_t>(e.i)], uj = unknown[static_cast<std::size_t>(e.j)];
    // Row of A: +1 at j, -1 at i; A^T A and A^T m accumulate.
    if (uj >= 0) {
      a[static_cast<std::size_t>(uj) * static_cast<std::size_t>(n) + static_cast<std::size_t>(uj)] += 1;
      b[2 * static_cast<std::size_t>(uj)] += e.m.x;
      b[2 * static_cast<std::size_t>(uj) + 1] += e.m.y;
    }
    if (ui >= 0) {
      a[static_cast<std::size_t>(ui) * static_cast<std::size_t>(n) + static_cast<std::size_t>(ui)] += 1;
      b[2 * static_cast<std::size_t>(ui)] -= e.m.x;
      b[2 * static_cast<std::size_t>(ui) + 1] -= e.m.y;
    }
    if (ui >= 0 && uj >= 0) {
      a[static_cast<std::size_t>(ui) * static_cast<std::size_t>(n) + static_cast<std::size_t>(uj)] -= 1;
      a[static_cast<std::size_t>(uj) * static_cast<std::size_t>(n) + static_cast<std::size_t>(ui)] -= 1;
    }
  }
  cholesky_solve(a, b, n);
  for (int f = 0; f < frames; ++f) {
    const int u = unknown[static_cast<std::size_t>(f)];
    if (u >= 0) d[static_cast<std::size_t>(f)] = {b[2 * static_cast<std::size_t>(u)], b[2 * static_cast<std::size_t>(u) + 1]};
  }
  return d;
}

SolverResult solve_positions(int frames, const std::vector<PairEquation>& equations, const SolverOptions& options) {
  const std::size_t ne = equations.size();
  SolverResult r;
  r.accepted.assign(ne, 0);
  for (std::size_t k = 0; k < ne; ++k) r.accepted[k] = equations[k].usable ? 1 : 0;
  r.connected = connects(frames, equations, r.accepted);
  r.positions = least_squares_positions(frames, equations, r.accepted);
  std::vector<char> kept(ne, 0);

  auto residual = [&](std::size_t k) {
    const PairEquation& e = equations[k];
    const Vec2& di = r.positions[static_cast<std::size_t>(e.i)];
    const Vec2& dj = r.positions[static_cast<std::size_t>(e.j)];
    return Vec2{e.m.x - (dj.x - di.x), e.m.y - (dj.y - di.y)};
  };

  for (int round = 1; round <= options.max_rounds; ++round) {
    std::vector<double> ex, ey;
    for (std::size_t k = 0; k < ne; ++k)
      if (r.accepted[k]) {
        const Vec2 e = residual(k);
        ex.push_back(e.x);
        ey.push_back(e.y);
      }
    const Spread sx = spread(ex), sy = spread(ey);
    const double tx = options.outlier_sigma * std::max(std::sqrt(sx.var), options.min_sigma);
    const double ty = options.outlier_sigma * std::max(std::sqrt(sy.var), options.min_sigma);
    // Candidates, worst first (index breaks ties so the order is deterministic).
    std::vector<std::pair<double, std::size_t>> worst;
    for (std::size_t k = 0; k < ne; ++k) {
      if (!r.accepted[k]) continue;
      const Vec2 e = residual(k);
      const double score = std::max(std::abs(e.x) / tx, std::abs(e.y) / ty);
      if (score > 1.0) worst.push_back({-score, k});
    }
    std::sort(worst.begin(), worst.end());
    int rejected = 0;
    for (const auto& w : worst) {
      r.accepted[w.second] = 0;
      if (r.connected && !connects(frames, equations, r.accepted)) {
        r.accepted[w.second] = 1; // dropping it would cut a frame loose
        kept[w.second] = 1;
        continue;
      }
      ++rejected;
    }
    if (rejected == 0) break;
    r.outliers += rejected;
    r.rounds = round;
    r.positions = least_squares_positions(frames, equations, r.accepted);
  }
  for (char k : kept) r.kept_for_connectivity += k;

  std::vector<double> mx, my, ex, ey;
  for (std::size_t k = 0; k < ne; ++k)
    if (r.accepted[k]) {
      const Vec2 e = residual(k);
      mx.push_back(equations[k].m.x);
      my.push_back(equations[k].m.y);
      ex.push_back(e.x);
      ey.push_back(e.y);
    }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Spread smx = spread(mx), smy = spread(my), sex = spread(ex), sey = spread(ey);
  r.r2_x = smx.var > 0 ? 1.0 - sex.var / smx.var : nan;
  r.r2_y = smy.var > 0 ? 1.0 - sey.var / smy.var : nan;
  auto rms = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x * x;
    return v.empty() ? 0.0 : std::sqrt(s / static_cast<double>(v.size()));
  };
  r.residual_rms_x = rms(ex);
  r.residual_rms_y = rms(ey);
  return r;
}

} // namespace frost::motion
