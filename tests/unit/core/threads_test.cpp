// The default thread count (docs/conventions.md#threads): the affinity mask, shared among unbound
// ranks of one node; FROST_NUM_THREADS and --thr before it.
#include <gtest/gtest.h>

#include <sched.h>
#include <stdlib.h>

#include <algorithm>

#include "frost/core/threads.hpp"

namespace frost {
namespace {

TEST(DefaultThreads, UnboundRanksOfOneNodeShareTheCores) {
  EXPECT_EQ(default_threads(32, 32, 1), 32);
  EXPECT_EQ(default_threads(32, 32, 2), 16);
  EXPECT_EQ(default_threads(32, 32, 3), 10);
  EXPECT_EQ(default_threads(4, 4, 8), 1) << "never below one thread";
}

TEST(DefaultThreads, ABoundProcessKeepsItsMask) {
  EXPECT_EQ(default_threads(8, 32, 1), 8);
  EXPECT_EQ(default_threads(8, 32, 4), 8) << "a rank bound to 8 cores has them to itself";
  EXPECT_EQ(default_threads(0, 32, 1), 1);
}

TEST(DefaultThreads, TheLauncherAndTheAffinityMaskAreRead) {
  ::unsetenv("FROST_NUM_THREADS");
  set_num_threads(0);
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  const int mine = CPU_COUNT(&set);
  ::setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
  const int shared = num_threads();
  ::unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  const int alone = num_threads();
  EXPECT_EQ(alone, mine);
  EXPECT_TRUE(shared == mine || shared == std::max(1, mine / 2)) << shared;
  ::setenv("FROST_NUM_THREADS", "3", 1);
  EXPECT_EQ(num_threads(), 3);
  set_num_threads(5);
  EXPECT_EQ(num_threads(), 5) << "--thr comes first";
  set_num_threads(0);
  ::unsetenv("FROST_NUM_THREADS");
}

} // namespace
} // namespace frost
