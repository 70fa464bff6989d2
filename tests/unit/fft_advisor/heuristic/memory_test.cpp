// C6 (docs/fft_advisor.md#cpu-tests, docs/fft_advisor.md#options-batch-and-memory): data bytes, the
// scratch models, the batch search and the memory filter.
#include <gtest/gtest.h>

#include "frost/fft/heuristic.hpp"
#include "heuristic_detail.hpp"
#include "heuristic_test_util.hpp"

namespace frost::fft {
namespace {

// 4096-point float R2C out of place: data 4096 x 4 + 2049 x 8 bytes, worst-case scratch
// 8 x 4096 complex floats, per signal.
constexpr std::size_t kPerSignal = 4096 * 4 + 2049 * 8 + 8 * 4096 * 8;

TEST(HeuristicMemory, WorstModelAndLimitAdmittingExactlyBatchFive) {
  auto scratch = worst_case_scratch_model();
  EXPECT_EQ(scratch->name(), "worst");
  for (Resize mode : {Resize::Pad, Resize::Crop, Resize::Keep}) {
    AdvisorRequest req = test::request({4096, 1, 1}, mode, 10.0);
    req.signals = 8;
    req.mem_limit_bytes = 5 * kPerSignal + kPerSignal / 2; // batch 5 fits, 6 does not
    const auto cs = recommend(req, builtin_profile("cuda12"), *scratch);
    ASSERT_FALSE(cs.empty());
    EXPECT_EQ(cs.front().size.x, 4096);
    EXPECT_EQ(cs.front().batch, 5);
    EXPECT_EQ(cs.front().required_bytes(), 5 * kPerSignal);
    for (const Candidate& c : cs) EXPECT_LE(c.required_bytes(), *req.mem_limit_bytes);
  }
}

TEST(HeuristicMemory, BatchIsTheLargestFittingAndNeverAboveN) {
  auto scratch = worst_case_scratch_model();
  for (index_t signals : {1, 2, 3, 5, 7, 8, 13, 100}) {
    for (std::size_t fit : {1u, 2u, 3u, 4u, 5u, 6u, 9u, 64u, 1000u}) {
      AdvisorRequest req = test::request({4096, 1, 1});
      req.signals = signals;
      req.mem_limit_bytes = fit * kPerSignal;
      const auto cs = recommend(req, builtin_profile("cuda12"), *scratch);
      EXPECT_EQ(cs.front().batch, std::min<index_t>(signals, static_cast<index_t>(fit)))
          << signals << " signals, " << fit << " fit";
    }
  }
}

TEST(HeuristicMemory, EveryReturnedConfigurationFitsWithMixedSizes) {
  // Padding 2273 proposes several sizes with different per-signal needs; each gets its own batch,
  // the largest that fits.
  auto scratch = worst_case_scratch_model();
  AdvisorRequest req = test::request({2273, 1, 1}, Resize::Pad, 20.0, 10);
  req.signals = 64;
  req.placements = {Placement::OutOfPlace, Placement::InPlace};
  req.mem_limit_bytes = 1'000'000;
  const auto cs = recommend(req, builtin_profile("cuda12"), *scratch);
  ASSERT_FALSE(cs.empty());
  for (const Candidate& c : cs) {
    EXPECT_LE(c.required_bytes(), *req.mem_limit_bytes) << to_string(c.size);
    Candidate bigger = c;
    bigger.batch = c.batch + 1;
    const std::size_t more = detail::data_bytes(bigger) + scratch->scratch_bytes(bigger);
    EXPECT_TRUE(c.batch == req.signals || more > *req.mem_limit_bytes) << to_string(c.size);
  }
}

TEST(HeuristicMemory, LimitBelowOneSignalIsNoCandidateNamingTheSmallestRequirement) {
  auto scratch = worst_case_scratch_model();
  AdvisorRequest req = test::request({4096, 1, 1}, Resize::Keep);
  req.signals = 8;
  req.mem_limit_bytes = kPerSignal - 1;
  try {
    recommend(req, builtin_profile("cuda12"), *scratch);
    FAIL() << "expected NoCandidate";
  } catch (const NoCandidate& e) {
    EXPECT_EQ(e.code(), ExitCode::Runtime); // exit code 1
    EXPECT_NE(std::string(e.what()).find(std::to_string(kPerSignal)), std::string::npos) << e.what();
  }
}

TEST(HeuristicMemory, NonBatchedVariantsUseOneSignal) {
  auto scratch = worst_case_scratch_model();
  AdvisorRequest req = test::request({4096, 1, 1});
  req.signals = 8;
  req.batched = {false};
  const auto cs = recommend(req, builtin_profile("cuda12"), *scratch);
  EXPECT_EQ(cs.front().batch, 1);
  EXPECT_FALSE(cs.front().batched);
  EXPECT_EQ(cs.front().required_bytes(), kPerSignal); // the byte fields describe one signal
  req.batched = {true};
  EXPECT_EQ(recommend(req, builtin_profile("cuda12"), *scratch).front().required_bytes(), 8 * kPerSignal);
}

TEST(HeuristicMemory, DataBytesPerLayout) {
  Candidate c;
  c.size = {101, 10, 1};
  c.batch = 3;
  c.kind = Kind::R2C;
  c.placement = Placement::OutOfPlace;
  EXPECT_EQ(detail::data_bytes(c), 3u * (101 * 10 * 4 + 51 * 10 * 8));
  c.placement = Placement::InPlace; // real rows padded to 2 (X/2 + 1)
  EXPECT_EQ(detail::data_bytes(c), 3u * (102 * 10 * 4));
  c.kind = Kind::C2R;
  EXPECT_EQ(detail::data_bytes(c), 3u * (102 * 10 * 4));
  c.kind = Kind::C2C;
  c.precision = Precision::F64;
  EXPECT_EQ(detail::data_bytes(c), 3u * (101 * 10 * 16));
  c.placement = Placement::OutOfPlace;
  EXPECT_EQ(detail::data_bytes(c), 3u * (2 * 101 * 10 * 16));
  // The worst-case scratch doubles with double precision.
  auto worst = worst_case_scratch_model();
  EXPECT_EQ(worst->scratch_bytes(c), 8u * 1010 * 3 * 16);
}

TEST(HeuristicMemory, PaperModelFigures) {
  auto paper = paper_scratch_model();
  EXPECT_EQ(paper->name(), "paper");
  Candidate c;
  c.size = {1000, 1, 1}; // even, recommended
  c.batch = 1;
  EXPECT_EQ(paper->scratch_bytes(c), 3994u); // 3.9 kB (binary) per 1000 elements
  c.precision = Precision::F64;
  EXPECT_EQ(paper->scratch_bytes(c), 7988u);
  c.size = {1125, 1, 1}; // odd recommended real (U9)
  EXPECT_EQ(paper->scratch_bytes(c), 36000u); // 31.25 kB x 1.125
  c.precision = Precision::F32;
  EXPECT_EQ(paper->scratch_bytes(c), 17995u); // 15.62 kB x 1.125, rounded up
  c.kind = Kind::C2C; // U9 is about real transforms only
  EXPECT_EQ(paper->scratch_bytes(c), 4493u);
  c.size = {1006, 1, 1}; // 2 x 503: discouraged
  c.batch = 2;
  EXPECT_EQ(paper->scratch_bytes(c), 63869u); // 31 kB x 2.012
  // The discouraged/recommended ratio is about 8 (U8).
  Candidate good = c, bad = c;
  good.size = {1000, 1, 1};
  bad.size = {1006, 1, 1};
  const double ratio = double(paper->scratch_bytes(bad)) / 2.012 / (double(paper->scratch_bytes(good)) / 2.0);
  EXPECT_NEAR(ratio, 8.0, 0.1);
}

} // namespace
} // namespace frost::fft
