// T5 of docs/reconstruct_fourier.md#reconstruction-tests: the gather insertion against the
// test-only scatter reference (docs/reconstruct_fourier.md#scatter-reference; same kernel table,
// same sample spectra). Also with CTF correction, where the reference computes the CTF factors
// itself, which pins how the gather applies them.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "frost/test/support.hpp"
#include "recon_fixture.hpp"
#include "recon_runs.hpp"
#include "scatter_reference.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;

struct Mode {
  const char* name;
  recon::CtfMode ctf;
};

class GatherVsScatter : public ::testing::TestWithParam<Mode> {};

TEST_P(GatherVsScatter, T5SameReconstructionAsTheScatterReference) {
  const Mode mode = GetParam();
  const auto& c = test::standard_case();
  auto settings = test::default_settings(c.box);
  const Image<float>* stack = &c.stack;
  const std::vector<recon::ParticleRecord>* views = &c.views;
  if (mode.ctf != recon::CtfMode::None) {
    settings.ctf = mode.ctf;
    settings.pixel_size = test::ctf_case().pixel_size;
    stack = &test::ctf_case().stack;
    views = &test::ctf_case().views;
  }
  const auto gather = test::run_cpu(settings, *stack, *views);
  const auto scatter = test::reconstruct_scatter(settings, geom::parse_symmetry("c1"), *stack, *views);
  const auto q = test::measure(gather, scatter);
  const std::string label = std::string("T5 ") + mode.name;
  test::print_quality((label + " gather vs scatter:").c_str(), q);
  test::print_quality((label + " scatter vs phantom:").c_str(), test::measure(scatter, c.phantom));
  std::printf("%s relative L2(gather, scatter) %.3g\n", label.c_str(), test::relative_l2(gather, scatter));
  EXPECT_GE(q.ncc, 0.9995);
  for (int k = 1; k <= 14; ++k) EXPECT_GE(q.fsc[k], 0.998) << "shell " << k;
}

INSTANTIATE_TEST_SUITE_P(Modes, GatherVsScatter,
                         ::testing::Values(Mode{"no_ctf", recon::CtfMode::None}, Mode{"invert", recon::CtfMode::Invert},
                                           Mode{"wiener", recon::CtfMode::Wiener}),
                         [](const ::testing::TestParamInfo<Mode>& p) { return std::string(p.param.name); });

} // namespace
