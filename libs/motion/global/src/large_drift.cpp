#include "frost/motion/large_drift.hpp"

#include <algorithm>
#include <cmath>

#include "frost/motion/pair_graph.hpp"

namespace frost::motion {

namespace {

constexpr int kCloseDistance = 2; // (b): pairs with j - i <= 2 seed the solution
constexpr int kPasses = 3;        // (c)-(d) repetitions

// Adds excluded pairs (non-edge before edge, then closest in time) until every frame is linked.
// Returns how many edge-flagged pairs had to be used.
int connect_frames(int frames, const std::vector<PairMeasurement>& pairs, std::vector<char>& use) {
  FrameComponents comp(frames);
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (use[k]) comp.join(pairs[k].pair.i, pairs[k].pair.j);
  if (comp.components() <= 1) return 0;
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (!use[k]) order.push_back(k);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto key = [&](std::size_t k) {
      return std::make_pair(pairs[k].peak.edge ? 1 : 0, pairs[k].pair.j - pairs[k].pair.i);
    };
    return key(a) < key(b);
  });
  int edge_used = 0;
  for (std::size_t k : order) {
    if (comp.components() <= 1) break;
    if (!comp.join(pairs[k].pair.i, pairs[k].pair.j)) continue;
    use[k] = 1;
    if (pairs[k].peak.edge) ++edge_used;
  }
  return edge_used;
}

SolverResult solve_with(int frames, std::vector<PairEquation> eq, const std::vector<char>& use,
                        const SolverOptions& solver) {
  for (std::size_t k = 0; k < eq.size(); ++k) eq[k].usable = use[k] != 0;
  return solve_positions(frames, eq, solver);
}

} // namespace

std::vector<PairEquation> pair_equations(const std::vector<PairMeasurement>& pairs) {
  std::vector<PairEquation> eq;
  eq.reserve(pairs.size());
  for (const PairMeasurement& p : pairs) eq.push_back({p.pair.i, p.pair.j, p.displacement, true});
  return eq;
}

PairSelection select_pairs_for_large_drift(int frames, const std::vector<PairMeasurement>& pairs,
                                           Vec2 to_correlation, double search_radius,
                                           const SolverOptions& solver) {
  const std::size_t n = pairs.size();
  const std::vector<PairEquation> eq = pair_equations(pairs);
  PairSelection sel;
  int edge_used = 0;

  // (a) + (b): non-edge pairs close in time.
  std::vector<char> use(n, 0);
  for (std::size_t k = 0; k < n; ++k)
    use[k] = !pairs[k].peak.edge && pairs[k].pair.j - pairs[k].pair.i <= kCloseDistance;
  edge_used = std::max(edge_used, connect_frames(frames, pairs, use));
  SolverResult sol = solve_with(frames, eq, use, solver);

  // (c) + (d): keep what the solution predicts inside the trusted part of the disc.
  const double limit = search_radius - 1.5;
  for (int pass = 1; pass <= kPasses; ++pass) {
    std::vector<char> next(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
      const Vec2& di = sol.positions[static_cast<std::size_t>(pairs[k].pair.i)];
      const Vec2& dj = sol.positions[static_cast<std::size_t>(pairs[k].pair.j)];
      const double q = std::hypot((dj.x - di.x) * to_correlation.x, (dj.y - di.y) * to_correlation.y);
      next[k] = !pairs[k].peak.edge && q < limit;
    }
    edge_used = std::max(edge_used, connect_frames(frames, pairs, next));
    sel.bootstrap_passes = pass;
    if (next == use) break;
    use = std::move(next);
    sol = solve_with(frames, eq, use, solver);
  }

  sel.exclusion.assign(n, PairExclusion::None);
  for (std::size_t k = 0; k < n; ++k)
    if (!use[k]) sel.exclusion[k] = pairs[k].peak.edge ? PairExclusion::Edge : PairExclusion::BeyondRadius;
  sel.edge_pairs_used = edge_used;
  if (edge_used > 0)
    sel.warnings.push_back(std::to_string(edge_used) +
                           " pair(s) with their correlation maximum on the search-radius boundary were needed to "
                           "link every frame: the motion between neighbouring frames approaches --maxShift; "
                           "raise --maxShift");
  return sel;
}

} // namespace frost::motion
