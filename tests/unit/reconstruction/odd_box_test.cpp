// T17 of docs/reconstruct_fourier.md#reconstruction-tests: odd boxes (centre floor(N/2), P = 2N
// even) meet the T1 requirements, with the 0.95 FSC bound up to shell floor(N/2) - 2.
#include <gtest/gtest.h>

#include <cstdio>

#include "recon_fixture.hpp"
#include "recon_runs.hpp"

namespace {

using namespace frost;

class OddBox : public ::testing::TestWithParam<int> {};

TEST_P(OddBox, T17RoundTripMeetsT1Thresholds) {
  const int N = GetParam();
  const auto c = test::make_ph1_case(N, 300, 31);
  const auto q = test::measure(test::run_cpu(test::default_settings(N), c.stack, c.views), c.phantom);
  char label[32];
  std::snprintf(label, sizeof label, "T17 N %d:", N);
  test::print_quality(label, q);
  test::expect_t1_thresholds(q, N, N / 2 - 2);
}

INSTANTIATE_TEST_SUITE_P(Sizes, OddBox, ::testing::Values(33, 31));

} // namespace
