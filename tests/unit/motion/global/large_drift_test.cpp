// Pair selection for large drift (docs/movie_align.md#pairs-beyond-the-search-radius) on synthetic
// measurements: pairs whose true displacement exceeds the search radius carry garbage, flagged as
// an edge maximum or not.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "frost/motion/large_drift.hpp"

namespace frost::motion {
namespace {

constexpr int kFrames = 20;
constexpr double kRadius = 9.375;             // 40 A at 1 A/px on a 240/1024 grid [correlation px]
const Vec2 kToCorrelation{240.0 / 1024, 240.0 / 1024};

// T2-like drift: 6 px and 1.8 px per frame [processing px].
Vec2 truth(int t) { return {6.0 * t, 1.8 * t}; }

std::vector<PairMeasurement> measurements(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, 0.1);
  std::uniform_real_distribution<double> junk(-kRadius, kRadius);
  std::vector<PairMeasurement> out;
  for (const FramePair& p : frame_pairs(kFrames, 0)) {
    PairMeasurement m;
    m.pair = p;
    const Vec2 d{truth(p.j).x - truth(p.i).x, truth(p.j).y - truth(p.i).y};
    const double q = std::hypot(d.x * kToCorrelation.x, d.y * kToCorrelation.y);
    if (q < kRadius - 1.5) {
      m.displacement = {d.x + noise(rng), d.y + noise(rng)};
    } else {
      // Beyond the disc: half are caught on the boundary, half look like an interior maximum.
      m.peak.edge = (p.i + p.j) % 2 == 0;
      m.displacement = {junk(rng) / kToCorrelation.x, junk(rng) / kToCorrelation.y};
    }
    out.push_back(m);
  }
  return out;
}

TEST(LargeDrift, KeepsOnlyPairsPredictedInsideTheRadius) {
  const auto pairs = measurements(3);
  const PairSelection sel = select_pairs_for_large_drift(kFrames, pairs, kToCorrelation, kRadius, SolverOptions{});
  int kept = 0, wrong = 0, edge = 0, beyond = 0;
  std::vector<PairEquation> eq = pair_equations(pairs);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const Vec2 d{truth(pairs[k].pair.j).x - truth(pairs[k].pair.i).x, truth(pairs[k].pair.j).y - truth(pairs[k].pair.i).y};
    const bool good = std::hypot(d.x * kToCorrelation.x, d.y * kToCorrelation.y) < kRadius - 1.5;
    eq[k].usable = sel.exclusion[k] == PairExclusion::None;
    kept += eq[k].usable;
    wrong += eq[k].usable != good;
    edge += sel.exclusion[k] == PairExclusion::Edge;
    beyond += sel.exclusion[k] == PairExclusion::BeyondRadius;
  }
  const SolverResult r = solve_positions(kFrames, eq, SolverOptions{});
  double worst = 0;
  for (int t = 0; t < kFrames; ++t)
    worst = std::max(worst, std::hypot(r.positions[t].x - truth(t).x, r.positions[t].y - truth(t).y));
  std::printf("kept %d of %zu (%d edge, %d beyond radius), %d misclassified, %d passes, max position error %.3f px\n",
              kept, pairs.size(), edge, beyond, wrong, sel.bootstrap_passes, worst);
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(beyond, 0); // interior-looking garbage is caught by the prediction, not by the flag
  EXPECT_LT(worst, 0.2);
  EXPECT_TRUE(sel.warnings.empty());

  // Without the selection the same equations give a wrong track.
  const SolverResult plain = solve_positions(kFrames, pair_equations(pairs), SolverOptions{});
  double plain_worst = 0;
  for (int t = 0; t < kFrames; ++t)
    plain_worst = std::max(plain_worst, std::hypot(plain.positions[t].x - truth(t).x, plain.positions[t].y - truth(t).y));
  std::printf("without the selection: max position error %.2f px\n", plain_worst);
  EXPECT_GT(plain_worst, 5.0);
}

TEST(LargeDrift, EdgePairsNeededForConnectivityAreUsedWithAWarning) {
  // Every pair edge-flagged except (0,1): frames 2.. can only be linked through edge pairs.
  auto pairs = measurements(4);
  for (auto& p : pairs) {
    p.peak.edge = !(p.pair.i == 0 && p.pair.j == 1);
    const Vec2 d{truth(p.pair.j).x - truth(p.pair.i).x, truth(p.pair.j).y - truth(p.pair.i).y};
    p.displacement = d;
  }
  const PairSelection sel = select_pairs_for_large_drift(kFrames, pairs, kToCorrelation, kRadius, SolverOptions{});
  std::printf("edge pairs used to connect: %d, warnings %zu\n", sel.edge_pairs_used, sel.warnings.size());
  EXPECT_EQ(sel.edge_pairs_used, kFrames - 2);
  ASSERT_EQ(sel.warnings.size(), 1u);
  EXPECT_NE(sel.warnings[0].find("maxShift"), std::string::npos);
}

} // namespace
} // namespace frost::motion
