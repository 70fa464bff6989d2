// The SizeAdvisor API (docs/fft_advisor.md#library-api-for-programs): policies, the behaviour
// contract, backend independence of Portable (C10 of docs/fft_advisor.md#cpu-tests), the cache
// round trip of Tuned on the CPU.
#include <sys/stat.h>

#include <cmath>

#include "frost/fft/advisor_cache.hpp"
#include "frost/fft/cached_find.hpp"
#include "frost/fft/fftw_wisdom_file.hpp"
#include "frost/fft/heuristic.hpp"
#include "frost/fft/size_advisor.hpp"
#include "frost/test/support.hpp"

namespace frost::fft {
namespace {

SizeQuery query(Extent e, Resize r = Resize::Pad, double pct = 10.0) {
  SizeQuery q;
  q.shape = e;
  q.resize = r;
  q.max_change_pct = pct;
  return q;
}

TEST(SizeAdvisor, PortableIsTheSameOnEveryBackend) {
  // The CUDA advisor is asked with an explicit memory limit, so it never needs a device.
  SizeAdvisor cpu(Backend::Cpu), gpu_model(Backend::Cuda);
  for (Extent e : {Extent{3838, 3710, 1}, Extent{5760, 4092, 1}, Extent{2273, 1, 1}, Extent{100, 100, 100}})
    for (Resize r : {Resize::Pad, Resize::Crop}) {
      SizeQuery q = query(e, r);
      q.mem_limit_bytes = std::size_t{1} << 40;
      const SizeAdvice a = cpu.advise(q), b = gpu_model.advise(q);
      EXPECT_EQ(a.shape, b.shape) << to_string(e);
      EXPECT_EQ(a.batch, b.batch);
      EXPECT_EQ(a.source, Source::Heuristic);
      EXPECT_EQ(a.profile.rfind("portable/", 0), 0u);
      EXPECT_TRUE(std::isnan(a.ms_per_signal));
    }
}

TEST(SizeAdvisor, PortableAgreesWithTheHeuristic) {
  const SizeQuery q = query({3838, 3710, 1}, Resize::Crop, 10.0);
  AdvisorRequest r = to_request(q);
  const auto ranked = recommend(r, builtin_profile("portable"), *worst_case_scratch_model());
  EXPECT_EQ(advise(q).shape, ranked.front().size);
  EXPECT_EQ(advise(q).shape, (Extent{3780, 3600, 1})); // golden, docs/fft_advisor.md#worked-examples
}

TEST(SizeAdvisor, ContractIdentityCases) {
  for (index_t n : {64, 128, 4096})
    EXPECT_EQ(advise(query({n, n, 1})).shape, (Extent{n, n, 1})) << "powers of two are kept when padding";
  SizeQuery exact = query({3838, 3710, 1});
  exact.policy = Policy::Exact;
  const SizeAdvice a = advise(exact);
  EXPECT_EQ(a.shape, (Extent{3838, 3710, 1}));
  EXPECT_EQ(a.source, Source::Identity);
  SizeQuery keep = query({3838, 3710, 1}, Resize::Pad, 0.0);
  EXPECT_EQ(advise(keep).shape, (Extent{3838, 3710, 1})) << "max change 0 keeps the size";
}

TEST(SizeAdvisor, MemoryLimitSetsTheBatchNotTheSize) {
  SizeQuery q = query({4096, 4096, 1});
  q.signals = 8;
  const SizeAdvice unlimited = advise(q);
  EXPECT_EQ(unlimited.batch, 8);
  SizeQuery tight = q;
  tight.mem_limit_bytes = unlimited.required_bytes / 8 * 3 + 1; // room for about three signals
  const SizeAdvice limited = advise(tight);
  EXPECT_EQ(limited.shape, unlimited.shape);
  EXPECT_GE(limited.batch, 1);
  EXPECT_LT(limited.batch, 8);
  EXPECT_LE(limited.required_bytes, tight.mem_limit_bytes);
  SizeQuery none = q;
  none.mem_limit_bytes = 1024; // not even one signal
  EXPECT_THROW(advise(none), NoCandidate);
}

TEST(SizeAdvisor, TunedOnTheCpuMeasuresOnceThenAnswersFromTheCache) {
  test::TempDir dir;
  AdvisorOptions opts;
  opts.cache_dir = dir.path();
  opts.protocol.reps = 3;
  opts.protocol.min_total_ms = 1;
  opts.protocol.fftw_effort = FftRigor::Estimate;
  SizeQuery q = query({1000, 1, 1}, Resize::Pad, 10.0);
  q.policy = Policy::Tuned;
  q.measure_top = 4;
  q.signals = 4;
  SizeAdvisor advisor(Backend::Cpu, 0, opts);
  const SizeAdvice first = advisor.advise(q);
  EXPECT_EQ(first.source, Source::Measured);
  EXPECT_FALSE(std::isnan(first.ms_per_signal));
  EXPECT_GE(first.shape.x, 1000);
  EXPECT_LE(first.shape.x, 1100);
  EXPECT_EQ(first.profile.rfind("fftw/", 0), 0u);
  const SizeAdvice second = advisor.advise(q);
  EXPECT_EQ(second.source, Source::Cache);
  EXPECT_EQ(second.shape, first.shape);
  EXPECT_EQ(second.ms_per_signal, first.ms_per_signal);
  EXPECT_EQ(AdvisorCache(dir.path()).records().size(), 1u);
}

TEST(SizeAdvisor, PolicyNames) {
  EXPECT_EQ(parse_policy("tuned"), Policy::Tuned);
  EXPECT_EQ(to_string(Policy::Portable), "portable");
  EXPECT_EQ(to_string(Source::Cache), "cache");
  EXPECT_THROW(parse_policy("fast"), Error);
}

} // namespace
} // namespace frost::fft

namespace frost::fft {
namespace {

// find_cached (docs/fft_advisor.md#answer-cache): an answer that needs more memory than the limit is a miss,
// and the answer found under the limit lives under the limit's own key; FFTW wisdom is kept in the cache dir.
TEST(CachedFind, MemoryLimitedAnswersGetTheirOwnKeyAndWisdomIsSaved) {
  test::TempDir dir;
  CacheSettings cs;
  cs.dir = dir.path();
  Protocol pr;
  pr.reps = 2;
  pr.min_total_ms = 0.5;
  pr.fftw_effort = FftRigor::Measure;
  AdvisorRequest r;
  r.size = {4000, 1, 1};
  r.signals = 64;
  r.max_change_pct = 5.0;
  const Profile& fftw = builtin_profile("fftw");
  const auto scratch = worst_case_scratch_model();
  auto m = make_fftw_measurer(1);

  const CachedFind unlimited = find_cached(r, fftw, *scratch, *m, pr, 3, Policy::Tuned, cs);
  ASSERT_EQ(unlimited.source, Source::Measured);
  const Candidate& best = unlimited.result.ranked.at(static_cast<std::size_t>(unlimited.result.selected));
  EXPECT_EQ(best.batch, 64);
  EXPECT_EQ(find_cached(r, fftw, *scratch, *m, pr, 3, Policy::Tuned, cs).source, Source::Cache);

  AdvisorRequest limited = r;
  limited.mem_limit_bytes = best.required_bytes() / 4; // the stored answer does not fit
  const CachedFind first = find_cached(limited, fftw, *scratch, *m, pr, 3, Policy::Tuned, cs);
  EXPECT_EQ(first.source, Source::Measured);
  EXPECT_NE(first.key.find("|mem"), std::string::npos) << first.key;
  const Candidate& small = first.result.ranked.at(static_cast<std::size_t>(first.result.selected));
  EXPECT_LT(small.batch, 64);
  EXPECT_LE(small.required_bytes(), *limited.mem_limit_bytes);
  const CachedFind again = find_cached(limited, fftw, *scratch, *m, pr, 3, Policy::Tuned, cs);
  EXPECT_EQ(again.source, Source::Cache);
  EXPECT_EQ(again.key, first.key);
  EXPECT_EQ(AdvisorCache(dir.path()).records().size(), 2u);
  struct stat st {};
  EXPECT_EQ(::stat(fftw_wisdom_file(dir.path(), Precision::F32).c_str(), &st), 0) << "wisdom saved after measuring";
}

} // namespace
} // namespace frost::fft
