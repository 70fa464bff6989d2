// T10 of docs/reconstruct_fourier.md#reconstruction-tests
// (docs/reconstruct_fourier.md#per-image-weights): per-image weights scale numerator and
// denominator alike, a weight of 2 counts like a duplicate, and weight 0 drops an image.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "frost/test/support.hpp"
#include "recon_fixture.hpp"
#include "recon_runs.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;

recon::ReconstructionSettings weighted_settings(int box) {
  auto s = test::default_settings(box);
  s.use_weights = true;
  return s;
}

/// The standard views with weights U[0.5, 2] (so that the weights matter at all).
std::vector<recon::ParticleRecord> randomly_weighted_views() {
  auto views = test::standard_case().views;
  std::mt19937 rng(101);
  std::uniform_real_distribution<double> w(0.5, 2.0);
  for (auto& v : views) v.weight = w(rng);
  return views;
}

TEST(WeightsReconstruct, T10ScalingAllWeightsChangesNothing) {
  const auto& c = test::standard_case();
  const auto settings = weighted_settings(c.box);
  const auto views = randomly_weighted_views();
  auto scaled = views;
  for (auto& v : scaled) v.weight *= 3.7;
  const auto base = test::run_cpu(settings, c.stack, views);
  const auto rel = test::relative_l2(test::run_cpu(settings, c.stack, scaled), base);
  const auto unweighted = test::relative_l2(test::run_cpu(test::default_settings(c.box), c.stack, views), base);
  std::printf("T10 relative L2(weights x 3.7, weights): %.3g (weights vs no weights: %.3g)\n", rel, unweighted);
  EXPECT_LE(rel, 1e-6);
  EXPECT_GT(unweighted, 1e-3); // the weights are applied
}

TEST(WeightsReconstruct, T10WeightTwoEqualsDuplicate) {
  const auto& c = test::standard_case();
  const auto settings = weighted_settings(c.box);
  std::vector<recon::ParticleRecord> duplicated, doubled = c.views;
  for (const auto& v : c.views) {
    duplicated.push_back(v); // row names the same image twice
    duplicated.push_back(v);
  }
  for (auto& v : doubled) v.weight = 2.0;
  const auto group = geom::parse_symmetry("c1");
  const double rel = test::relative_l2(test::run_accumulate(settings, group, doubled, c.stack),
                                       test::run_accumulate(settings, group, duplicated, c.stack));
  std::printf("T10 relative L2(weight 2, duplicated): %.3g\n", rel);
  EXPECT_LE(rel, 1e-6);
}

TEST(WeightsReconstruct, T10ZeroWeightEqualsRemovedBitForBit) {
  const auto& c = test::standard_case();
  const auto settings = weighted_settings(c.box);
  auto views = randomly_weighted_views();
  std::vector<recon::ParticleRecord> kept;
  int zeroed = 0;
  for (std::size_t i = 0; i < views.size(); ++i) {
    if (i % 10 == 3) {
      views[i].weight = 0.0;
      ++zeroed;
    } else {
      kept.push_back(views[i]);
    }
  }
  const auto group = geom::parse_symmetry("c1");
  const auto with_zeros = test::run_accumulate(settings, group, views, c.stack);
  const auto removed = test::run_accumulate(settings, group, kept, c.stack);
  std::printf("T10 %d of %zu images with weight 0 vs removed: bit-identical %s, relative L2 %.3g\n", zeroed,
              views.size(), test::bit_identical(with_zeros, removed) ? "yes" : "no",
              test::relative_l2(with_zeros, removed));
  EXPECT_TRUE(test::bit_identical(with_zeros, removed));
}

} // namespace
