// T9 of docs/reconstruct_fourier.md#reconstruction-tests: CTF-modulated projections (4 A/px, 300
// kV, Cs 2.7 mm, A = 0.1, astigmatic underfocus 3000-8000 A) reconstructed with CTF correction
// (invert and Wiener) recover the phantom; without correction they do not.
#include <gtest/gtest.h>

#include "recon_fixture.hpp"
#include "recon_runs.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;

test::Quality run_with(recon::CtfMode mode) {
  const auto& c = test::standard_case();
  const auto& d = test::ctf_case();
  auto settings = test::default_settings(c.box);
  settings.ctf = mode;
  settings.pixel_size = d.pixel_size;
  return test::measure(test::run_cpu(settings, d.stack, d.views), c.phantom);
}

TEST(CtfReconstruct, T9InvertRecoversPhantom) {
  const auto q = run_with(recon::CtfMode::Invert);
  test::print_quality("T9 invert:", q);
  EXPECT_GE(q.ncc, 0.997);
  for (int k = 1; k <= 14; ++k) EXPECT_GE(q.fsc[k], 0.9) << "shell " << k;
}

TEST(CtfReconstruct, T9WienerRecoversPhantom) {
  const auto q = run_with(recon::CtfMode::Wiener);
  test::print_quality("T9 wiener:", q);
  EXPECT_GE(q.ncc, 0.997);
  for (int k = 1; k <= 14; ++k) EXPECT_GE(q.fsc[k], 0.9) << "shell " << k;
}

// Not in the table of docs/reconstruct_fourier.md#reconstruction-tests: the T4 requirement (fast vs
// precise) on the T9 data in Wiener mode, where the fast path's per-pixel weight factor (CTF^2)
// differs most from the numerator's (CTF).
TEST(CtfReconstruct, WienerFastModeMatchesPrecise) {
  const auto& c = test::standard_case();
  const auto& d = test::ctf_case();
  auto settings = test::default_settings(c.box);
  settings.ctf = recon::CtfMode::Wiener;
  settings.pixel_size = d.pixel_size;
  const auto precise = test::run_cpu(settings, d.stack, d.views);
  settings.fast = true;
  const auto q = test::measure(test::run_cpu(settings, d.stack, d.views), precise);
  test::print_quality("T9/T4 wiener fast vs precise:", q);
  EXPECT_GE(q.ncc, 0.999);
  for (int k = 1; k <= 14; ++k) EXPECT_GE(q.fsc[k], 0.98) << "shell " << k;
}

TEST(CtfReconstruct, T9WithoutCorrectionDoesNot) {
  const auto q = run_with(recon::CtfMode::None);
  test::print_quality("T9 no CTF correction:", q);
  EXPECT_LE(q.ncc, 0.95);
}

} // namespace
