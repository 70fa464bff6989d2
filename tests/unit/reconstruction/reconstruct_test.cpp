// Reconstruction round trips against the PH1 phantom (docs/reconstruct_fourier.md#reconstruction-tests).
#include <gtest/gtest.h>

#include <cstdio>

#include "frost/reconstruction/reconstruct.hpp"
#include "recon_fixture.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;

recon::ReconstructionSettings default_settings(int box) {
  recon::ReconstructionSettings s;
  s.box = box;
  return s;
}

TEST(ReconstructRoundTrip, PreciseKbMatchesPhantom) {
  const int N = 32;
  const auto blobs = test::ph1_blobs(N, 11);
  const auto views = test::random_views(300, 12);
  const auto stack = test::exact_projections(N, blobs, views);
  const auto phantom = sim::render_blobs(N, blobs);
  const auto map = recon::reconstruct_cpu(default_settings(N), geom::parse_symmetry("c1"), stack.cview(), views);
  const double ncc = test::ncc_sphere(map, phantom);
  const auto fsc = test::fsc_shells(map, phantom);
  const double scale = test::scale_factor(map, phantom);
  std::printf("T1 NCC %.5f scale %.4f FSC:", ncc, scale);
  for (std::size_t k = 0; k < fsc.size(); ++k) std::printf(" %.3f", fsc[k]);
  std::printf("\n");
  EXPECT_GE(ncc, 0.998);
  for (int k = 1; k <= 14; ++k) EXPECT_GE(fsc[k], 0.95) << "shell " << k;
  EXPECT_GE(fsc[16], 0.7);
  EXPECT_GE(scale, 0.95);
  EXPECT_LE(scale, 1.08);
}

} // namespace
