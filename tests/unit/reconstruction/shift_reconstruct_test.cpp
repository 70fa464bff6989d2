// T8 of docs/reconstruct_fourier.md#reconstruction-tests: the metadata shift s is the translation
// to apply to the image (docs/reconstruct_fourier.md#shifts-as-a-phase-ramp), so images whose
// content is displaced by d reconstruct with s = -d.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "recon_fixture.hpp"
#include "recon_runs.hpp"

namespace {

using namespace frost;

TEST(ShiftReconstruct, T8MetadataShiftUndoesDisplacement) {
  const auto& c = test::standard_case();
  auto shifted = c.views;
  std::mt19937 rng(81);
  std::uniform_real_distribution<double> displacement(-4.0, 4.0);
  for (auto& v : shifted) {
    v.shift_x = -displacement(rng); // content displaced by d = -s
    v.shift_y = -displacement(rng);
  }
  const auto stack = test::exact_projections(c.box, c.blobs, shifted);
  const auto settings = test::default_settings(c.box);
  const auto unshifted_run = test::run_cpu(settings, c.stack, c.views);
  const auto shifted_run = test::run_cpu(settings, stack, shifted);
  auto flipped = shifted;
  for (auto& v : flipped) {
    v.shift_x = -v.shift_x;
    v.shift_y = -v.shift_y;
  }
  const auto flipped_run = test::run_cpu(settings, stack, flipped);
  const double ncc = test::ncc_sphere(shifted_run, unshifted_run);
  const double ncc_flipped = test::ncc_sphere(flipped_run, unshifted_run);
  std::printf("T8 NCC(shifted run, unshifted run) %.5f; with the sign flipped %.4f\n", ncc, ncc_flipped);
  EXPECT_GE(ncc, 0.999);
  EXPECT_LE(ncc_flipped, 0.6);
}

} // namespace
