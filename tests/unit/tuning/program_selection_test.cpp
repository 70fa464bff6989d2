// What a program picks for a tunable kernel before its main loop (docs/tune.md#lookup-order and
// #common-options): --tune off ignores the cache, the other policies take an exact or similar record
// whose best configuration is valid in the program's space, and fall back to the kernel default.
#include <gtest/gtest.h>

#include "frost/test/support.hpp"
#include "frost/tuning/problem_key.hpp"
#include "frost/tuning/program_selection.hpp"
#include "tuning_test_util.hpp"

namespace frost::tuning {
namespace {

struct Fixture {
  frost::test::TempDir dir;
  KernelSpace space = fr_insert_space(DeviceLimits{}, FrInsertSettings{});
  TuningKey key_for(std::int64_t edge) const {
    TuningKey k = test::make_key("fr_insert", space.space.signature(),
                                 ProblemKey().size("spec", {edge / 2 + 1, edge}).bucket("batch", 1500).str());
    k.kernel.version = space.space.kernel_version();
    return k;
  }
  TuningOptions options(TunePolicy policy) const {
    TuningOptions o;
    o.policy = policy;
    o.cache_dir = dir.path();
    return o;
  }
  void store(const TuningKey& key, NamedConfig best) const {
    TuningCache cache(dir.path());
    TuningRecord r = test::make_record(key.str(), 1.0);
    r.best = std::move(best);
    ASSERT_TRUE(cache.append(r));
  }
};

NamedConfig config(std::int64_t block, std::int64_t grid_z, std::int64_t tile) {
  return {{"BLOCK_DIM", block}, {"GRID_DIM_Z", grid_z}, {"SHARED_BLOB_TABLE", 0}, {"TILE", tile}, {"PRECOMPUTE_BLOB_VAL", 1}};
}

TEST(TuningProgramSelection, PoliciesAndSources) {
  Fixture f;
  f.store(f.key_for(128), config(8, 64, 2));
  for (TunePolicy p : {TunePolicy::Cached, TunePolicy::Auto, TunePolicy::Dynamic}) {
    const Selection s = select_for_program(f.options(p), f.key_for(128), f.space);
    EXPECT_EQ(s.source, ConfigSource::Exact) << to_string(p);
    EXPECT_EQ(s.config, config(8, 64, 2)) << to_string(p);
  }
  // off never reads the cache.
  const Selection off = select_for_program(f.options(TunePolicy::Off), f.key_for(128), f.space);
  EXPECT_EQ(off.source, ConfigSource::Default);
  EXPECT_EQ(off.config, f.space.default_config);
  EXPECT_NE(describe_selection("fr_insert", off, f.options(TunePolicy::Off)).find("--tune off"), std::string::npos);
  // A size within 1.5x is similar; twice the size is not.
  const Selection similar = select_for_program(f.options(TunePolicy::Cached), f.key_for(160), f.space);
  EXPECT_EQ(similar.source, ConfigSource::Similar);
  EXPECT_EQ(similar.config, config(8, 64, 2));
  const Selection far = select_for_program(f.options(TunePolicy::Cached), f.key_for(256), f.space);
  EXPECT_EQ(far.source, ConfigSource::Default);
  EXPECT_NE(describe_selection("fr_insert", far, f.options(TunePolicy::Cached)).find("no record"), std::string::npos);
}

TEST(TuningProgramSelection, RecordsInvalidInThisSpaceAreSkipped) {
  Fixture f;
  // 32 x 32 threads cannot run on a 256-thread device; TILE 3 is no value of the space.
  f.store(f.key_for(128), config(32, 64, 1));
  f.store(f.key_for(128), config(16, 64, 3));
  DeviceLimits small;
  small.max_threads_per_block = 256;
  f.space = fr_insert_space(small, FrInsertSettings{});
  const Selection s = select_for_program(f.options(TunePolicy::Cached), f.key_for(128), f.space);
  EXPECT_EQ(s.source, ConfigSource::Default);
  EXPECT_EQ(s.config, f.space.default_config);
}

} // namespace
} // namespace frost::tuning
