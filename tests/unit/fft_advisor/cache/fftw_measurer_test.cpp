// C9 (library part): the FFTW measurer times every candidate of 1D n = 1000..1100, handles all
// transform options, reports failures as results; FFTW wisdom survives export and re-import
// (docs/fft_advisor.md#wisdom) so that WisdomOnly planning succeeds for the same sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <regex>
#include <utility>

#include "cache_test_util.hpp"
#include "frost/fft/advisor_backend.hpp"
#include "frost/fft/fftw_wisdom_file.hpp"
#include "frost/fft/planner.hpp"
#include "frost/fft/versions.hpp"
#include "frost/fft/wisdom.hpp"
#include "frost/test/support.hpp"

namespace frost::fft {
namespace {

Candidate candidate_1d(index_t n, Kind kind = Kind::R2C, Placement placement = Placement::OutOfPlace,
                       bool batched = true, index_t batch = 1) {
  Candidate c;
  c.size = {n, 1, 1};
  c.kind = kind;
  c.direction = kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
  c.placement = placement;
  c.batched = batched;
  c.batch = batch;
  return c;
}

/// Short protocol so the whole range runs in well under a second.
Protocol quick_protocol() {
  Protocol p;
  p.warmup = 1;
  p.reps = 3;
  p.min_total_ms = 0.05;
  p.max_samples = 50;
  p.fftw_effort = FftRigor::Estimate;
  return p;
}

void expect_valid(const Measurement& m, const Protocol& p, const std::string& what) {
  ASSERT_TRUE(m.ok()) << what << ": " << m.error;
  EXPECT_GE(m.samples, p.reps) << what;
  EXPECT_LE(m.samples, p.max_samples) << what;
  EXPECT_TRUE(std::isfinite(m.median_ms_per_signal) && m.median_ms_per_signal > 0) << what;
  EXPECT_LE(m.min_ms_per_signal, m.median_ms_per_signal) << what;
  EXPECT_GT(m.mean_ms_per_signal, 0) << what;
  EXPECT_GE(m.std_ms_per_signal, 0) << what;
  EXPECT_GE(m.plan_ms, 0) << what;
  EXPECT_GT(m.ms_per_exec, 0) << what;
}

TEST(FftwMeasurer, MeasuresEveryOneDimensionalSizeFrom1000To1100) {
  auto measurer = make_fftw_measurer();
  const Protocol p = quick_protocol();
  for (index_t n = 1000; n <= 1100; ++n) {
    const Measurement m = measurer->measure(candidate_1d(n), p);
    expect_valid(m, p, "n=" + std::to_string(n));
    EXPECT_DOUBLE_EQ(m.ms_per_exec, m.median_ms_per_signal); // one signal per execution
  }
}

TEST(FftwMeasurer, HandlesEveryKindPlacementAndBatching) {
  auto measurer = make_fftw_measurer();
  const Protocol p = quick_protocol();
  for (Kind k : {Kind::R2C, Kind::C2R, Kind::C2C})
    for (Placement pl : {Placement::OutOfPlace, Placement::InPlace})
      for (bool batched : {true, false}) {
        const std::string what = to_string(k) + " " + to_string(pl) + (batched ? " many" : " single");
        const Measurement m = measurer->measure(candidate_1d(1001, k, pl, batched, 4), p);
        expect_valid(m, p, what);
        // Batched: 4 signals per execution; otherwise one.
        EXPECT_NEAR(m.ms_per_exec / m.median_ms_per_signal, batched ? 4.0 : 1.0, 1e-9) << what;
      }
  Candidate c2d = candidate_1d(64, Kind::R2C, Placement::InPlace, true, 2);
  c2d.size.y = 48;
  expect_valid(measurer->measure(c2d, p), p, "2D");
}

TEST(FftwMeasurer, MinimumTotalTimeAddsSamples) {
  auto measurer = make_fftw_measurer();
  Protocol p = quick_protocol();
  p.reps = 2;
  p.min_total_ms = 5;
  p.max_samples = 100000;
  const Measurement m = measurer->measure(candidate_1d(1024), p);
  ASSERT_TRUE(m.ok()) << m.error;
  EXPECT_GE(m.mean_ms_per_signal * m.samples, 5.0 * 0.99);
  p.max_samples = 3; // the cap wins over the minimum time
  EXPECT_EQ(measurer->measure(candidate_1d(1024), p).samples, 3);
}

TEST(FftwMeasurer, FailingConfigurationReturnsAnError) {
  auto measurer = make_fftw_measurer();
  Measurement m;
  EXPECT_NO_THROW(m = measurer->measure(candidate_1d(0), quick_protocol()));
  EXPECT_EQ(m.status, "error");
  EXPECT_FALSE(m.ok());
  EXPECT_FALSE(m.error.empty());

  // WisdomOnly without wisdom for the size: no plan, reported as an error.
  forget_wisdom();
  Protocol p = quick_protocol();
  p.fftw_effort = FftRigor::WisdomOnly;
  EXPECT_NO_THROW(m = measurer->measure(candidate_1d(1031), p));
  EXPECT_EQ(m.status, "error");
  EXPECT_NE(m.error.find("wisdom"), std::string::npos) << m.error;
}

TEST(FftwMeasurer, IdentityNamesCpuIsaThreadsAndFftwVersion) {
  auto measurer = make_fftw_measurer();
  EXPECT_EQ(measurer->device_identity(), "fftw|" + cpu_model() + "|" + cpu_isa_level() + "|1");
  EXPECT_FALSE(cpu_model().empty());
  EXPECT_EQ(cpu_model().find('|'), std::string::npos);
  const std::string isa = cpu_isa_level();
  EXPECT_TRUE(isa == "avx512" || isa == "avx2" || isa == "avx" || isa == "sse2" || isa == "x86" || isa == "neon" ||
              isa == "generic")
      << isa;
  EXPECT_EQ(measurer->library_versions(), fftw_version());
  EXPECT_FALSE(measurer->device_uuid().empty());
  EXPECT_EQ(measurer->default_memory_limit(), 0u);
}

TEST(FftwWisdomFile, NameCarriesFingerprintAndPrecision) {
  const std::string f32 = fftw_wisdom_file("/some/dir", Precision::F32);
  const std::string f64 = fftw_wisdom_file("/some/dir", Precision::F64);
  EXPECT_TRUE(std::regex_match(f32, std::regex("/some/dir/fftw-wisdom-[0-9a-f]{16}-f32\\.txt"))) << f32;
  EXPECT_EQ(f64, f32.substr(0, f32.size() - 7) + "f64.txt");
  EXPECT_EQ(fftw_fingerprint(), fftw_fingerprint());
  EXPECT_FALSE(load_fftw_wisdom("/some/dir", Precision::F64));
}

/// FFTW_MEASURE planning of the sizes 1000..1100 takes seconds each for the primes, so the
/// range is split into chunks that ctest can run in parallel.
class FftwWisdomRoundTrip : public ::testing::TestWithParam<std::pair<index_t, index_t>> {};

TEST_P(FftwWisdomRoundTrip, ExportReimportAndWisdomOnlyPlanning) {
  const auto [first, last] = GetParam();
  frost::test::TempDir tmp;
  const std::string dir = tmp.file("cache");
  PlanOptions measure;
  measure.rigor = FftRigor::Measure;
  measure.threads = 1;
  // No time limit: on a loaded machine a limit can cut planning short, and FFTW keeps no usable
  // wisdom for plans it had to give up on.
  PlanOptions wisdom_only = measure;
  wisdom_only.rigor = FftRigor::WisdomOnly;
  wisdom_only.time_limit_s = -1;
  const auto spec_of = [](index_t n) { return FftSpec::r2c(Shape{n, 1, 1, 1}); };

  forget_wisdom();
  {
    auto planner = make_planner(Backend::Cpu);
    for (index_t n = first; n <= last; ++n) ASSERT_TRUE(planner->plan(spec_of(n), measure)) << n;
  }
  ASSERT_TRUE(save_fftw_wisdom(dir));
  const std::string file = fftw_wisdom_file(dir, Precision::F32);
  ASSERT_TRUE(std::filesystem::exists(file));
  EXPECT_GT(std::filesystem::file_size(file), 0u);

  forget_wisdom();
  EXPECT_FALSE(make_planner(Backend::Cpu)->try_plan(spec_of(last), wisdom_only)) << "wisdom was not forgotten";
  ASSERT_TRUE(load_fftw_wisdom(dir));
  auto planner = make_planner(Backend::Cpu);
  for (index_t n = first; n <= last; ++n) EXPECT_TRUE(planner->try_plan(spec_of(n), wisdom_only)) << n;

  // Saving again merges with what the file holds instead of replacing it with less.
  forget_wisdom();
  ASSERT_TRUE(save_fftw_wisdom(dir));
  forget_wisdom();
  ASSERT_TRUE(load_fftw_wisdom(dir));
  EXPECT_TRUE(make_planner(Backend::Cpu)->try_plan(spec_of(first), wisdom_only));
  forget_wisdom();
}

INSTANTIATE_TEST_SUITE_P(Sizes1000To1100, FftwWisdomRoundTrip,
                         ::testing::Values(std::make_pair(index_t(1000), index_t(1025)),
                                           std::make_pair(index_t(1026), index_t(1050)),
                                           std::make_pair(index_t(1051), index_t(1075)),
                                           std::make_pair(index_t(1076), index_t(1100))));

TEST(FftwWisdomFile, UnwritableDirectoryOnlyWarns) {
  frost::test::TempDir tmp;
  test::append_raw(tmp.file("plain-file"), "x");
  test::LogCapture log(tmp.file("log.txt"));
  bool saved = true;
  EXPECT_NO_THROW(saved = save_fftw_wisdom(tmp.file("plain-file/cache")));
  EXPECT_FALSE(saved);
  EXPECT_EQ(log.warnings(), 1) << log.text();
  EXPECT_FALSE(load_fftw_wisdom(tmp.file("plain-file/cache"))); // missing file: nothing to load, no warning
}

TEST(FftwWisdomFile, CorruptFileIsIgnoredWithAWarning) {
  frost::test::TempDir tmp;
  test::append_raw(fftw_wisdom_file(tmp.path(), Precision::F32), "(this is not fftw wisdom");
  test::LogCapture log(tmp.file("log.txt"));
  EXPECT_FALSE(load_fftw_wisdom(tmp.path()));
  EXPECT_EQ(log.warnings(), 1) << log.text();
}

} // namespace
} // namespace frost::fft
