// The common options (docs/tune.md#common-options; the parsing side of T10): policy values, seeds, the cli
// declaration every GPU-capable program will share, what each policy does with a lookup, and
// the once-per-process note of CPU-only runs.
#include <gtest/gtest.h>

#include <algorithm>

#include "frost/cli/params.hpp"
#include "frost/core/error.hpp"
#include "frost/test/support.hpp"
#include "frost/tuning/options.hpp"
#include "frost/tuning/policy.hpp"
#include "tuning_test_util.hpp"

namespace frost::tuning {
namespace {

TuningOptions parse(const std::vector<std::string>& args) {
  cli::Params p;
  declare_tuning_options(p);
  p.parse(args);
  return tuning_options_from(p);
}

TEST(TuningPolicy, PolicyValues) {
  EXPECT_EQ(parse_tune_policy("off"), TunePolicy::Off);
  EXPECT_EQ(parse_tune_policy("cached"), TunePolicy::Cached);
  EXPECT_EQ(parse_tune_policy("auto"), TunePolicy::Auto);
  EXPECT_EQ(parse_tune_policy("dynamic"), TunePolicy::Dynamic);
  EXPECT_EQ(parse_tune_policy("full"), TunePolicy::Dynamic);
  for (TunePolicy p : {TunePolicy::Off, TunePolicy::Cached, TunePolicy::Auto, TunePolicy::Dynamic})
    EXPECT_EQ(parse_tune_policy(to_string(p)), p);
  try {
    parse_tune_policy("sometimes");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
  }
}

TEST(TuningPolicy, Seeds) {
  EXPECT_EQ(parse_tune_seed("0x5eed"), 24301u);
  EXPECT_EQ(parse_tune_seed("24301"), 24301u);
  EXPECT_EQ(parse_tune_seed("0xFFFFFFFFFFFFFFFF"), ~std::uint64_t(0));
  for (const char* bad : {"", "0x", "-1", "12a", "0x1g", "99999999999999999999"})
    EXPECT_THROW(parse_tune_seed(bad), Error) << bad;
}

TEST(TuningPolicy, CommonOptionsWithDefaults) {
  frost::test::TempDir tmp;
  const TuningOptions d = parse({"--tuning-cache", tmp.path()});
  EXPECT_EQ(d.policy, TunePolicy::Auto);
  EXPECT_EQ(d.budget, 50);
  EXPECT_FALSE(d.searcher);
  EXPECT_EQ(d.seed, kDefaultSeed);
  EXPECT_EQ(d.time_s, 120.0);
  EXPECT_EQ(d.cache_dir, tmp.path());
  EXPECT_FALSE(d.no_nvrtc);

  const TuningOptions o = parse({"--tune", "dynamic", "--tune-budget", "20", "--tune-searcher", "annealing", "--tune-seed",
                                 "7", "--tune-time-s", "30", "--tuning-cache", "/x", "--no-nvrtc"});
  EXPECT_EQ(o.policy, TunePolicy::Dynamic);
  EXPECT_EQ(o.budget, 20);
  EXPECT_EQ(o.searcher, SearcherKind::Annealing);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_EQ(o.time_s, 30.0);
  EXPECT_EQ(o.cache_dir, "/x");
  EXPECT_TRUE(o.no_nvrtc);

  EXPECT_EQ(parse({"--tuning", "full"}).policy, TunePolicy::Dynamic); // the spelling
  EXPECT_EQ(parse({"--tune", "off"}).policy, TunePolicy::Off);
  EXPECT_THROW(parse({"--tune", "always"}), Error);
  EXPECT_THROW(parse({"--tune-budget", "0"}), Error);
  EXPECT_THROW(parse({"--tune-searcher", "genetic"}), Error);
  EXPECT_THROW(parse({"--tune-seed", "seed"}), Error);
}

TEST(TuningPolicy, WhatEachPolicyDoesWithALookup) {
  using S = ConfigSource;
  for (S s : {S::Exact, S::Stale, S::Similar, S::ArchDefault, S::Default}) {
    EXPECT_FALSE(should_tune(TunePolicy::Off, s, true));
    EXPECT_FALSE(should_tune(TunePolicy::Cached, s, true));
    EXPECT_EQ(should_tune(TunePolicy::Auto, s, true), s != S::Exact);
    EXPECT_FALSE(should_tune(TunePolicy::Auto, s, false));
    EXPECT_EQ(should_tune(TunePolicy::Dynamic, s, false), s != S::Exact);
  }
  EXPECT_FALSE(uses_cache(TunePolicy::Off));
  EXPECT_TRUE(uses_cache(TunePolicy::Cached));
  EXPECT_TRUE(uses_cache(TunePolicy::Auto));
  EXPECT_TRUE(uses_cache(TunePolicy::Dynamic));
}

TEST(TuningPolicy, CpuOnlyRunsLogOneNote) {
  frost::test::TempDir tmp;
  test::LogCapture log(tmp.file("log.txt"));
  // Once per process: the first call logs (unless an earlier test in this process did), later
  // calls never do, whatever the policy.
  int logged = 0;
  bool first = true;
  for (const char* v : {"off", "cached", "auto", "dynamic"}) {
    const bool now = note_tuning_ignored_on_cpu(parse({"--tune", v}));
    if (!first) {
      EXPECT_FALSE(now) << v;
    }
    logged += now;
    first = false;
  }
  const std::string text = log.text();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), logged) << text;
  if (logged == 1) {
    EXPECT_NE(text.find("note: kernel tuning options are ignored on the CPU (--tune off)"), std::string::npos);
  }
}

} // namespace
} // namespace frost::tuning
