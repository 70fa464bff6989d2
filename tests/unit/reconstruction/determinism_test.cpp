// T13 of docs/reconstruct_fourier.md#reconstruction-tests: the CPU reconstruction is bit-identical when
// repeated and for any thread count.
#include <gtest/gtest.h>

#include <cstdio>

#include "frost/core/threads.hpp"
#include "frost/test/support.hpp"
#include "recon_fixture.hpp"
#include "recon_runs.hpp"

namespace {

using namespace frost;

/// Restores the default thread rule when the test ends, pass or fail.
struct ThreadCountGuard {
  ~ThreadCountGuard() { frost::set_num_threads(0); }
};

TEST(Determinism, T13RepeatedRunsAndThreadCountsAreBitIdentical) {
  const ThreadCountGuard guard;
  const auto& c = test::standard_case();
  const auto settings = test::default_settings(c.box);
  const auto first = test::run_cpu(settings, c.stack, c.views);
  const auto again = test::run_cpu(settings, c.stack, c.views);
  EXPECT_TRUE(test::bit_identical(first, again)) << "repeated run";
  std::printf("T13 repeated run (%d threads): %s\n", frost::num_threads(),
              test::bit_identical(first, again) ? "bit-identical" : "DIFFERENT");
  for (int threads : {1, 2, 4}) {
    frost::set_num_threads(threads);
    const auto map = test::run_cpu(settings, c.stack, c.views);
    const bool same = test::bit_identical(map, first);
    std::printf("T13 %d threads: %s (relative L2 %.3g)\n", threads, same ? "bit-identical" : "DIFFERENT",
                test::relative_l2(map, first));
    EXPECT_TRUE(same) << threads << " threads";
  }
}

} // namespace
