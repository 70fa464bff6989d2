// Dynamic tuning inside a main loop (docs/tune.md#dynamic-tuning-in-a-run), driven with synthetic
// kernel times and an injected clock: which calls are timed, when `auto` tunes, the phase's
// budget and time cap, the re-measurement of the three fastest, invalid configurations, the
// device lock, and the record the run leaves.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "frost/core/error.hpp"
#include "frost/tuning/decision.hpp"
#include "frost/tuning/device_lock.hpp"
#include "frost/tuning/dynamic_tuner.hpp"
#include "frost/tuning/problem_key.hpp"
#include "frost/test/support.hpp"
#include "tuning_test_util.hpp"

namespace frost::tuning {
namespace {

struct Harness {
  KernelSpace space = fr_insert_space(DeviceLimits{}, FrInsertSettings{});
  double now = 0;
  std::string key = test::make_key("fr_insert", space.space.signature(), ProblemKey().size("spec", {65, 128}).str()).str();

  DynamicTuner::Setup setup(TunePolicy policy, double calls, ConfigSource source = ConfigSource::Default) {
    DynamicTuner::Setup s;
    s.options.policy = policy;
    s.key = key;
    s.selection.source = source;
    s.selection.config = space.default_config;
    s.estimated_calls = calls;
    s.clock = [this] { return now; };
    return s;
  }
  /// Synthetic time of a configuration; the known (default) configuration is never invalid.
  std::optional<double> cost(const DynamicTuner& t, std::size_t index) const {
    if (index == t.known()) return 2.0;
    return test::synthetic_ms(space.space, t.configs()[index]);
  }
};

/// Runs `calls` calls, reporting the cost of timed ones; the clock advances `dt` per call.
/// Returns the configurations the timed calls ran, in order.
std::vector<std::size_t> drive(DynamicTuner& t, Harness& h, int calls, double dt = 0) {
  std::vector<std::size_t> timed;
  for (int c = 0; c < calls; ++c) {
    h.now += dt;
    const DynamicTuner::Step s = t.next();
    if (s.timed) {
      timed.push_back(s.config);
      t.report(s, h.cost(t, s.config));
    }
  }
  return timed;
}

TEST(TuningDynamic, OffCachedAndExactNeverTime) {
  Harness h;
  for (auto [policy, source] : {std::pair{TunePolicy::Off, ConfigSource::Default},
                                std::pair{TunePolicy::Cached, ConfigSource::Default},
                                std::pair{TunePolicy::Auto, ConfigSource::Exact},
                                std::pair{TunePolicy::Dynamic, ConfigSource::Exact}}) {
    DynamicTuner t(h.space, h.setup(policy, 1e6, source));
    EXPECT_EQ(t.state(), DynamicTuner::State::Fixed) << to_string(policy);
    EXPECT_TRUE(drive(t, h, 100).empty()) << to_string(policy);
    EXPECT_EQ(t.current(), t.known());
    EXPECT_EQ(t.named(t.current()), h.space.default_config);
    EXPECT_FALSE(t.record().has_value());
    EXPECT_EQ(t.calls(), 100u);
  }
}

TEST(TuningDynamic, AutoDoesNotTuneWhenTooFewCalls) {
  Harness h;
  // The rule of docs/tune.md#when-dynamic-tuning-pays with avg/best 2.2, s = 50, rp = 0.9: 540
  // calls are needed.
  ASSERT_NEAR(calls_needed(0.9, 50, kDefaultAvgOverBest, 0), 540, 1e-9);
  DynamicTuner t(h.space, h.setup(TunePolicy::Auto, 539));
  EXPECT_EQ(t.state(), DynamicTuner::State::Probing);
  const auto timed = drive(t, h, 539);
  ASSERT_EQ(timed.size(), 1u); // the probe only
  EXPECT_EQ(timed[0], t.known());
  EXPECT_EQ(t.state(), DynamicTuner::State::Fixed);
  EXPECT_EQ(t.current(), t.known());
  EXPECT_FALSE(t.searched());
  EXPECT_NE(t.reason().find("539 calls < 540"), std::string::npos) << t.reason();
  EXPECT_FALSE(t.record().has_value());
}

TEST(TuningDynamic, AutoTunesWithEnoughCallsAndKeepsTheBestOfTwoSamples) {
  Harness h;
  DynamicTuner t(h.space, h.setup(TunePolicy::Auto, 541));
  const auto timed = drive(t, h, 541);
  EXPECT_EQ(t.state(), DynamicTuner::State::Fixed);
  ASSERT_TRUE(t.searched());
  // Probe (= the phase's first step), 49 more phase steps, then the three fastest again.
  ASSERT_EQ(timed.size(), 53u);
  EXPECT_EQ(timed[0], t.known());
  std::set<std::size_t> phase(timed.begin(), timed.begin() + 50);
  EXPECT_EQ(phase.size(), 50u) << "no configuration measured twice during the phase";
  // The three re-measured are the three fastest valid ones of the phase, fastest first.
  std::vector<std::pair<double, std::size_t>> valid;
  for (std::size_t i = 0; i < 50; ++i)
    if (const auto ms = h.cost(t, timed[i])) valid.emplace_back(*ms, timed[i]);
  std::stable_sort(valid.begin(), valid.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  ASSERT_GE(valid.size(), 3u);
  EXPECT_EQ(timed[50], valid[0].second);
  EXPECT_EQ(timed[51], valid[1].second);
  EXPECT_EQ(timed[52], valid[2].second);
  // Same synthetic time twice: the fastest stays the fastest.
  EXPECT_EQ(t.current(), valid[0].second);
  ASSERT_TRUE(t.chosen_ms().has_value());
  EXPECT_DOUBLE_EQ(*t.chosen_ms(), valid[0].first);
  EXPECT_DOUBLE_EQ(t.known_ms().value(), 2.0);

  const auto r = t.record();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->key, h.key);
  EXPECT_EQ(r->mode, "dynamic");
  EXPECT_EQ(r->explored, 50);
  EXPECT_EQ(r->invalid, static_cast<std::int64_t>(50 - valid.size()));
  EXPECT_EQ(r->best, t.named(t.current()));
  EXPECT_DOUBLE_EQ(r->best_ms, valid[0].first);
  ASSERT_TRUE(r->default_ms.has_value());
  EXPECT_DOUBLE_EQ(*r->default_ms, 2.0);
  EXPECT_EQ(r->protocol.min_samples, 1);
  EXPECT_NE(t.summary().find("tuned in this run: 50 configurations in 53 timed of 541 calls"), std::string::npos)
      << t.summary();
  // After the phase every call runs the kept configuration untimed.
  EXPECT_TRUE(drive(t, h, 20).empty());
}

TEST(TuningDynamic, SecondSamplesCanChangeTheChoice) {
  Harness h;
  DynamicTuner t(h.space, h.setup(TunePolicy::Dynamic, 10));
  std::map<std::size_t, int> seen;
  std::vector<std::size_t> confirm;
  for (int c = 0; c < 200; ++c) {
    const auto s = t.next();
    if (!s.timed) continue;
    const int k = seen[s.config]++;
    if (k == 1) confirm.push_back(s.config);
    // First samples: the order of the synthetic times; the second sample of the fastest is
    // ten times slower (a disturbed launch), so the second fastest wins on the mean.
    std::optional<double> ms = h.cost(t, s.config);
    if (k == 1 && confirm.size() == 1 && ms) ms = *ms * 10;
    t.report(s, ms);
  }
  ASSERT_EQ(confirm.size(), 3u);
  EXPECT_EQ(t.current(), confirm[1]);
}

TEST(TuningDynamic, DynamicTunesEvenForFewCallsAndRespectsTheBudget) {
  Harness h;
  DynamicTuner::Setup s = h.setup(TunePolicy::Dynamic, 10);
  s.options.budget = 7;
  DynamicTuner t(h.space, std::move(s));
  const auto timed = drive(t, h, 100);
  EXPECT_EQ(timed.size(), 7u + 3u);
  EXPECT_EQ(t.record()->explored, 7);
  EXPECT_NE(t.reason().find("budget"), std::string::npos) << t.reason();
}

TEST(TuningDynamic, TimeCapIsTenPercentOfTheRemainingKernelTime) {
  Harness h;
  // Probe 2 ms x 50,000 remaining calls = 100 s of kernel time: a cap of 10 s (< 120 s).
  DynamicTuner t(h.space, h.setup(TunePolicy::Dynamic, 50001));
  drive(t, h, 200, 1.0); // one second per call
  ASSERT_TRUE(t.searched());
  // The phase starts at the probe (t = 1 s); its next() at call c sees t = c s and stops at
  // c = 11: the probe plus calls 2..10.
  EXPECT_EQ(t.record()->explored, 10);
  EXPECT_NE(t.reason().find("time"), std::string::npos) << t.reason();
}

TEST(TuningDynamic, IncomparableCallsAndOutstandingStepsRunTheCurrentBestUntimed) {
  Harness h;
  DynamicTuner t(h.space, h.setup(TunePolicy::Dynamic, 1000));
  EXPECT_FALSE(t.next(false).timed); // e.g. a last, partial batch
  const auto probe = t.next();
  ASSERT_TRUE(probe.timed);
  // Another lane asks while the probe is in flight.
  const auto other = t.next();
  EXPECT_FALSE(other.timed);
  EXPECT_EQ(other.config, t.known());
  t.report(probe, 2.0);
  const auto step = t.next();
  EXPECT_TRUE(step.timed);
  EXPECT_THROW(t.report(probe, 1.0), frost::Error); // not the outstanding step
  t.report(step, 1.0);
  EXPECT_EQ(t.calls(), 4u);
  EXPECT_EQ(t.timed_calls(), 2u);
}

TEST(TuningDynamic, LaunchFailuresAreInvalidAndNeverKept) {
  Harness h;
  DynamicTuner t(h.space, h.setup(TunePolicy::Dynamic, 10));
  std::size_t failed = 0;
  for (int c = 0; c < 100; ++c) {
    const auto s = t.next();
    if (!s.timed) continue;
    // Every configuration faster than the probe "fails to launch".
    std::optional<double> ms = h.cost(t, s.config);
    if (s.config != t.known() && ms && *ms < 2.0) {
      ms.reset();
      ++failed;
    }
    t.report(s, ms);
  }
  EXPECT_GT(failed, 0u);
  EXPECT_EQ(t.state(), DynamicTuner::State::Fixed);
  const auto r = t.record();
  ASSERT_TRUE(r.has_value());
  EXPECT_GE(r->invalid, static_cast<std::int64_t>(failed));
  EXPECT_GE(r->best_ms, 2.0); // nothing that failed is kept
}

TEST(TuningDynamic, ProbeFailureFallsBackToTheDefault) {
  Harness h;
  DynamicTuner t(h.space, h.setup(TunePolicy::Dynamic, 1000));
  const auto probe = t.next();
  t.report(probe, std::nullopt);
  EXPECT_EQ(t.state(), DynamicTuner::State::Fixed);
  EXPECT_EQ(t.named(t.current()), h.space.default_config);
  EXPECT_FALSE(t.record().has_value());
}

TEST(TuningDynamic, RecordedRatioAndTopListFeedAutoAndTheSearch) {
  Harness h;
  // A stale record whose best is another configuration and whose explored ratio is 1.05: the rule
  // then needs only 0.9 x 50 x 0.05 / 0.1 = 22.5 calls.
  const auto configs = h.space.space.enumerate();
  TuningRecord rec = test::make_record(h.key, 1.0);
  rec.best = h.space.space.named(configs[5]);
  rec.top = {{h.space.space.named(configs[5]), 1.0}, {h.space.space.named(configs[9]), 1.1}};
  rec.avg_over_best = 1.05;
  DynamicTuner::Setup s = h.setup(TunePolicy::Auto, 23, ConfigSource::Stale);
  s.selection.config = rec.best;
  s.selection.hit = CacheHit{ConfigSource::Stale, rec, false, 1};
  DynamicTuner t(h.space, std::move(s));
  EXPECT_EQ(t.known(), 5u);
  std::vector<std::size_t> timed;
  for (int c = 0; c < 3; ++c) {
    const auto st = t.next();
    ASSERT_TRUE(st.timed);
    timed.push_back(st.config);
    t.report(st, 1.0 + 0.1 * c);
  }
  EXPECT_EQ(t.state(), DynamicTuner::State::Tuning) << t.reason();
  // The probe ran the record's best; the random search then starts with the rest of its top list.
  EXPECT_EQ(timed[0], 5u);
  EXPECT_EQ(timed[1], 9u);
}

TEST(TuningDynamic, DeviceLockHeldOnlyDuringThePhase) {
  Harness h;
  std::weak_ptr<void> token;
  DynamicTuner::Setup s = h.setup(TunePolicy::Dynamic, 10);
  s.options.budget = 4;
  s.lock_device = [&token] {
    auto t = std::make_shared<int>(1);
    token = t;
    return std::shared_ptr<void>(t);
  };
  DynamicTuner t(h.space, std::move(s));
  drive(t, h, 2);
  EXPECT_FALSE(token.expired()); // tuning: held
  drive(t, h, 50);
  EXPECT_EQ(t.state(), DynamicTuner::State::Fixed);
  EXPECT_TRUE(token.expired()); // released after the phase

  DynamicTuner::Setup busy = h.setup(TunePolicy::Dynamic, 10);
  busy.lock_device = [] { return std::shared_ptr<void>(); };
  DynamicTuner b(h.space, std::move(busy));
  EXPECT_EQ(drive(b, h, 50).size(), 1u); // the probe, then no phase
  EXPECT_FALSE(b.searched());
  EXPECT_NE(b.reason().find("another process"), std::string::npos);
}

TEST(TuningDynamic, DeviceLockFileIsExclusive) {
  frost::test::TempDir dir;
  auto first = try_tuning_lock(dir.path() + "/tuning", "GPU-1234/x");
  ASSERT_NE(first, nullptr);
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/tuning/device-GPU-1234_x.lock"));
  EXPECT_EQ(try_tuning_lock(dir.path() + "/tuning", "GPU-1234/x"), nullptr); // held (another open file)
  EXPECT_NE(try_tuning_lock(dir.path() + "/tuning", "GPU-other"), nullptr);  // another device
  first.reset();
  EXPECT_NE(try_tuning_lock(dir.path() + "/tuning", "GPU-1234/x"), nullptr); // released
}

} // namespace
} // namespace frost::tuning
