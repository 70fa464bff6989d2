// C4 second half (docs/fft_advisor.md#cpu-tests): the option order of the ranking on a hand-built
// list with all 16 flag combinations, the remaining ranking rules, rotation
// (docs/fft_advisor.md#rotation-and-transposition), transposition, square-only and request
// validation (docs/fft_advisor.md#request-and-validation).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "frost/core/error.hpp"
#include "frost/fft/heuristic.hpp"
#include "heuristic_detail.hpp"
#include "heuristic_test_util.hpp"

namespace frost::fft {
namespace {

/// The rule-1 key of a candidate, as four bits in priority order (0 = preferred).
int flags(const Candidate& c) {
  return (c.precision == Precision::F64) << 3 | (c.kind == Kind::C2C) << 2 | (c.placement == Placement::InPlace) << 1 |
         (!c.batched);
}

TEST(HeuristicRanking, OptionOrderOnHandBuiltList) {
  std::vector<Candidate> list;
  for (int f = 0; f < 16; ++f) {
    Candidate c;
    c.size = {2304, 1, 1};
    c.precision = f & 8 ? Precision::F64 : Precision::F32;
    c.kind = f & 4 ? Kind::C2C : Kind::R2C;
    c.placement = f & 2 ? Placement::InPlace : Placement::OutOfPlace;
    c.batched = !(f & 1);
    // Later rules would prefer the worse flags: larger batch and fewer kernels for the
    // "worse" options must not override rule 1.
    c.batch = 1 + f;
    c.kernels = {16 - f, 0, 0};
    c.kernels_total = 16 - f;
    list.push_back(c);
  }
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::shuffle(list.begin(), list.end(), rng);
    std::sort(list.begin(), list.end(), [](const Candidate& a, const Candidate& b) {
      return detail::heuristic_less(a, b, Extent{2273, 1, 1}, TieBreak::Closest);
    });
    for (int f = 0; f < 16; ++f) ASSERT_EQ(flags(list[static_cast<std::size_t>(f)]), f) << "position " << f;
  }
}

TEST(HeuristicRanking, RecommendExpandsAllSixteenCombinationsInOrder) {
  auto scratch = worst_case_scratch_model();
  AdvisorRequest req = test::request({4096, 1, 1}, Resize::Pad, std::nullopt, 100);
  req.signals = 4;
  req.precisions = {Precision::F64, Precision::F32};
  req.kinds = {Kind::C2C, Kind::R2C};
  req.placements = {Placement::InPlace, Placement::OutOfPlace};
  req.batched = {false, true};
  const auto cs = recommend(req, builtin_profile("cuda12"), *scratch);
  ASSERT_EQ(cs.size(), 16u);
  for (int f = 0; f < 16; ++f) {
    EXPECT_EQ(flags(cs[static_cast<std::size_t>(f)]), f) << "position " << f;
    EXPECT_EQ(cs[static_cast<std::size_t>(f)].batch, cs[static_cast<std::size_t>(f)].batched ? 4 : 1);
  }
}

TEST(HeuristicRanking, LargerBatchThenKernelsThenCloseness) {
  const Extent request{1000, 1, 1};
  Candidate a, b;
  a.size = {1024, 1, 1};
  b.size = {1000, 1, 1};
  a.batch = 4;
  b.batch = 2;
  EXPECT_TRUE(detail::heuristic_less(a, b, request, TieBreak::Closest)); // rule 2 beats rule 4
  b.batch = 4;
  a.kernels = {2, 0, 0};
  a.kernels_total = 2;
  b.kernels = {1, 0, 0};
  b.kernels_total = 1;
  EXPECT_TRUE(detail::heuristic_less(b, a, request, TieBreak::Closest)); // rule 3
  // Rule 3 second part: equal totals, fewer launches in X first.
  Candidate c, d;
  c.size = {11264, 8100, 1};
  c.kernels = {2, 3, 0};
  d.size = {11520, 8000, 1};
  d.kernels = {3, 2, 0};
  c.kernels_total = d.kernels_total = 5;
  EXPECT_TRUE(detail::heuristic_less(c, d, Extent{11520, 8184, 1}, TieBreak::Closest));
  // Rule 5: x ascending, then unrotated first.
  Candidate e = c, r = c;
  r.rotated = true;
  EXPECT_TRUE(detail::heuristic_less(e, r, Extent{11520, 8184, 1}, TieBreak::Closest));
  EXPECT_FALSE(detail::heuristic_less(r, e, Extent{11520, 8184, 1}, TieBreak::Closest));
}

TEST(HeuristicRanking, TieBreakClosestVersusElementsInCrop) {
  auto scratch = worst_case_scratch_model();
  // 4096 cropped by 10 % under cuda12: every window member is one launch.
  AdvisorRequest req = test::request({4096, 1, 1}, Resize::Crop, 10.0, 10);
  const auto closest = recommend(req, builtin_profile("cuda12"), *scratch);
  req.tie_break = TieBreak::Elements;
  const auto elements = recommend(req, builtin_profile("cuda12"), *scratch);
  ASSERT_EQ(closest.size(), 10u);
  ASSERT_EQ(elements.size(), 10u);
  EXPECT_EQ(closest.front().size.x, 4096); // frost: least cropped
  // Reference behaviour: the most cropped size of the same proximity window comes first.
  EXPECT_EQ(elements.front().size.x, closest.back().size.x);
  EXPECT_LT(elements.front().size.x, 4096);
  // In pad mode the two coincide.
  AdvisorRequest pad = test::request({2273, 1, 1});
  const auto a = recommend(pad, builtin_profile("cuda12"), *scratch);
  pad.tie_break = TieBreak::Elements;
  EXPECT_EQ(test::shapes(a), test::shapes(recommend(pad, builtin_profile("cuda12"), *scratch)));
}

TEST(HeuristicRanking, CountTruncatesAndWindowLimitsTuples) {
  auto scratch = worst_case_scratch_model();
  AdvisorRequest req = test::request({2273, 1, 1}, Resize::Pad, std::nullopt, 3);
  EXPECT_EQ(recommend(req, builtin_profile("cuda12"), *scratch).size(), 3u);
  req.count = 50; // window max(10, 50) = 50
  EXPECT_EQ(recommend(req, builtin_profile("cuda12"), *scratch).size(), 50u);
  req.window = 5;
  EXPECT_EQ(recommend(req, builtin_profile("cuda12"), *scratch).size(), 5u);
}

// Rotation: the decision tree, with dimensions and kernel counts swapped (defect 6 of
// docs/fft_advisor.md#defects-of-the-reference-we-do-not-copy).
TEST(HeuristicRotation, DecisionTreeSwapsDimensionsAndKernels) {
  auto scratch = worst_case_scratch_model();
  struct Case {
    Extent size;
    std::string profile;
    bool swapped;
  };
  const Case cases[] = {
      {{3375, 100, 1}, "cuda12", true},  // X odd, kX <= 1, X > Y
      {{3375, 4000, 1}, "cuda12", true}, // X odd, kX <= 1, X <= Y, Y even, r <= 35
      {{3375, 3969, 1}, "cuda12", false}, // X odd, kX <= 1, X <= Y, Y odd
      {{64, 81, 1}, "cuda12", true},     // X even, kY <= 1, kX <= 1, Y odd, pY <= 1
      {{64, 64, 1}, "cuda12", false},    // X even, both one launch, Y even
      {{8192, 210, 1}, "cuda8", true},   // X even, kY = 4 > 3, pX = 1, pY = 4
      {{8192, 2048, 1}, "cuda8", false}, // X even, kY = 2, pY = 1
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(to_string(c.size) + " " + c.profile);
    AdvisorRequest req = test::request(c.size, Resize::Keep);
    req.kinds = {Kind::C2C}; // odd sizes are admissible for C2C under the profile rules
    req.allow_rotation = true;
    const Profile& profile = builtin_profile(c.profile);
    const auto cs = recommend(req, profile, *scratch);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_EQ(cs.front().rotated, c.swapped);
    const Extent expect = c.swapped ? Extent{c.size.y, c.size.x, 1} : c.size;
    EXPECT_EQ(cs.front().size, expect);
    EXPECT_EQ(cs.front().kernels[0], kernel_estimate(expect.x, profile, Precision::F32));
    EXPECT_EQ(cs.front().kernels[1], kernel_estimate(expect.y, profile, Precision::F32));
    // Off by default: never rotated.
    req.allow_rotation = false;
    EXPECT_FALSE(recommend(req, profile, *scratch).front().rotated);
  }
}

TEST(HeuristicTransposition, EveryDistinctPermutationIsSearched) {
  auto scratch = worst_case_scratch_model();
  AdvisorRequest req = test::request({100, 3000, 1}, Resize::Keep);
  req.allow_transposition = true;
  const auto two = test::shapes(recommend(req, builtin_profile("cuda12"), *scratch));
  EXPECT_EQ(two.size(), 2u);
  EXPECT_NE(std::find(two.begin(), two.end(), "3000x100x1"), two.end());
  EXPECT_NE(std::find(two.begin(), two.end(), "100x3000x1"), two.end());
  req.size = {96, 100, 3000};
  EXPECT_EQ(recommend(req, builtin_profile("cuda12"), *scratch).size(), 6u);
  req.size = {96, 96, 3000};
  EXPECT_EQ(recommend(req, builtin_profile("cuda12"), *scratch).size(), 3u); // distinct permutations only
}

TEST(HeuristicSquareOnly, SidesComeFromTheLargestWhenPaddingAndTheSmallestWhenCropping) {
  auto scratch = worst_case_scratch_model();
  AdvisorRequest pad = test::request({100, 200, 1}, Resize::Pad, std::nullopt, 20);
  pad.square_only = true;
  for (const Candidate& c : recommend(pad, builtin_profile("cuda12"), *scratch)) {
    EXPECT_EQ(c.size.x, c.size.y);
    EXPECT_GE(c.size.x, 200);
    EXPECT_EQ(c.size.z, 1);
  }
  AdvisorRequest crop = test::request({100, 200, 1}, Resize::Crop, 80.0, 20);
  crop.square_only = true;
  for (const Candidate& c : recommend(crop, builtin_profile("cuda12"), *scratch)) {
    EXPECT_EQ(c.size.x, c.size.y);
    EXPECT_LE(c.size.x, 100);
    EXPECT_GE(c.size.elements() * 100, 20000 * 20); // total window: at most 80 % smaller
  }
  AdvisorRequest cube = test::request({60, 70, 50}, Resize::Pad);
  cube.square_only = true;
  for (const Candidate& c : recommend(cube, builtin_profile("portable"), *scratch)) {
    EXPECT_EQ(c.size.x, c.size.y);
    EXPECT_EQ(c.size.y, c.size.z);
  }
}

void expect_usage_error(const AdvisorRequest& req, const std::string& what) {
  auto scratch = worst_case_scratch_model();
  try {
    recommend(req, builtin_profile("cuda12"), *scratch);
    ADD_FAILURE() << "expected a usage error: " << what;
  } catch (const NoCandidate& e) {
    ADD_FAILURE() << what << ": NoCandidate instead of a usage error: " << e.what();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage) << what;
  }
}

TEST(HeuristicValidation, UsageErrors) {
  AdvisorRequest r = test::request({0, 1, 1});
  expect_usage_error(r, "zero dimension");
  r = test::request({16, 1, 16});
  expect_usage_error(r, "3D with Y = 1");
  r = test::request({16, 1, 1});
  r.signals = 0;
  expect_usage_error(r, "no signals");
  r = test::request({index_t{1} << 21, index_t{1} << 21, index_t{1} << 20});
  expect_usage_error(r, "element count 2^62");
  r = test::request({16, 1, 1}, Resize::Pad, -1.0);
  expect_usage_error(r, "negative change");
  r = test::request({16, 16, 1});
  r.square_only = true;
  r.allow_transposition = true;
  expect_usage_error(r, "square-only with transposition");
  r = test::request({16, 1, 1});
  r.optimize_dims = 4;
  expect_usage_error(r, "optimize_dims 4");
  r = test::request({16, 1, 1});
  r.precisions.clear();
  expect_usage_error(r, "no precision");
}

TEST(HeuristicValidation, ParityConflictOnAKeptDimensionIsNoCandidate) {
  auto scratch = worst_case_scratch_model();
  AdvisorRequest req = test::request({101, 1, 1}, Resize::Keep);
  req.parity[0] = Parity::Even;
  EXPECT_THROW(recommend(req, builtin_profile("cuda12"), *scratch), NoCandidate);
}

TEST(HeuristicDescribe, ChangeTermsAndData) {
  auto scratch = worst_case_scratch_model();
  AdvisorRequest req = test::request({2273, 1, 1}, Resize::Pad, std::nullopt, 1);
  const Candidate c = recommend(req, builtin_profile("cuda12"), *scratch).front();
  EXPECT_EQ(c.size.x, 2304);
  EXPECT_NEAR(c.change_pct, (2304.0 - 2273.0) / 2273.0 * 100.0, 1e-12);
  EXPECT_EQ(c.terms, 2);
  EXPECT_EQ(c.kernels, (std::array<int, 3>{1, 0, 0}));
  EXPECT_EQ(c.data_bytes, 2304u * 4 + 1153u * 8);
  EXPECT_EQ(c.plan_bytes_estimate, 8u * 2304 * 8);
  const Candidate o = original_configuration(req, builtin_profile("cuda12"), *scratch);
  EXPECT_EQ(o.size.x, 2273);
  EXPECT_EQ(o.kernels_total, kBadKernels);
  EXPECT_EQ(o.change_pct, 0.0);
}

TEST(HeuristicDescribe, OriginalTakesTheFirstOptionsOfRuleOne) {
  auto scratch = worst_case_scratch_model();
  AdvisorRequest req = test::request({64, 64, 1});
  req.signals = 3;
  req.precisions = {Precision::F64, Precision::F32};
  req.kinds = {Kind::C2C, Kind::C2R};
  req.placements = {Placement::InPlace, Placement::OutOfPlace};
  req.batched = {false, true};
  const Candidate o = original_configuration(req, builtin_profile("cuda12"), *scratch);
  EXPECT_EQ(o.precision, Precision::F32);
  EXPECT_EQ(o.kind, Kind::C2R);
  EXPECT_EQ(o.spec().direction, Direction::Inverse);
  EXPECT_EQ(o.placement, Placement::OutOfPlace);
  EXPECT_TRUE(o.batched);
  EXPECT_EQ(o.batch, 3);
}

} // namespace
} // namespace frost::fft
