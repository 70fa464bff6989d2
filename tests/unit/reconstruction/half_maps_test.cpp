// T16 of docs/reconstruct_fourier.md#reconstruction-tests (--halves,
// docs/reconstruct_fourier.md#outputs): one pass with two grids gives the half maps of separate
// subset runs bit for bit, and their sum gives the full map.
#include <gtest/gtest.h>

#include <cstdio>

#include "frost/reconstruction/finalise.hpp"
#include "frost/test/support.hpp"
#include "recon_fixture.hpp"
#include "recon_runs.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;

bool same_grid(const recon::HalfGrid& a, const recon::HalfGrid& b) {
  return a.M == b.M && a.data == b.data && a.weight == b.weight;
}

TEST(HalfMaps, T16HalvesEqualSubsetRunsAndSumToTheFullMap) {
  const int N = 32;
  auto c = test::make_ph1_case(N, 600, 161);
  for (std::size_t i = 0; i < c.views.size(); ++i) c.views[i].subset = 1 + int(i % 3 == 0); // 400 / 200
  std::vector<recon::ParticleRecord> subset[2];
  for (const auto& v : c.views) subset[v.subset - 1].push_back(v);
  const auto settings = test::default_settings(N);
  const auto layout = recon::make_grid_layout(settings);
  const auto group = geom::parse_symmetry("c1");

  auto halves = test::accumulate_cpu(settings, group, c.views, c.stack, 2);
  ASSERT_EQ(halves.size(), 2u);
  for (int h = 0; h < 2; ++h) {
    auto separate = test::accumulate_cpu(settings, group, subset[h], c.stack, 1);
    const bool grids_same = same_grid(halves[h], separate[0]);
    auto half_copy = halves[h];
    const bool maps_same = test::bit_identical(recon::finalise(half_copy, settings, layout),
                                               recon::finalise(separate[0], settings, layout));
    std::printf("T16 half %d (%zu images): grid %s, map %s to the --subset %d run\n", h + 1, subset[h].size(),
                grids_same ? "bit-identical" : "DIFFERENT", maps_same ? "bit-identical" : "DIFFERENT", h + 1);
    EXPECT_TRUE(grids_same) << "half " << h + 1;
    EXPECT_TRUE(maps_same) << "half " << h + 1;
  }

  recon::HalfGrid sum = halves[0];
  sum += halves[1];
  const auto full_from_halves = recon::finalise(sum, settings, layout);
  const auto full = test::run_accumulate(settings, group, c.views, c.stack);
  const double rel = test::relative_l2(full_from_halves, full);
  const double half_vs_full = test::relative_l2(recon::finalise(halves[0], settings, layout), full);
  std::printf("T16 relative L2(sum of halves, plain run) %.3g (half 1 vs plain run %.3g)\n", rel, half_vs_full);
  EXPECT_LE(rel, 1e-6);
  EXPECT_GT(half_vs_full, 1e-3); // a half map alone is not the full map
}

} // namespace
