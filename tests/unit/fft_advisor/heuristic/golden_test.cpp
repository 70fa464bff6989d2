// C4 (docs/fft_advisor.md#cpu-tests): the worked examples (docs/fft_advisor.md#worked-examples),
// exactly. W = 10, tie-break closest, float R2C out-of-place unless stated; pad with the
// power-of-two cap and no limit unless stated.
#include <gtest/gtest.h>

#include <cmath>

#include "frost/fft/heuristic.hpp"
#include "heuristic_test_util.hpp"

namespace frost::fft {
namespace {

using SizeK = std::pair<index_t, int>; // size (kernel estimate)

std::vector<SizeK> top_1d(index_t n, const std::string& profile, Resize mode, std::optional<double> p, int count,
                          Precision prec = Precision::F32) {
  auto scratch = worst_case_scratch_model();
  AdvisorRequest req = test::request({n, 1, 1}, mode, p, count);
  req.precisions = {prec};
  std::vector<SizeK> out;
  for (const Candidate& c : recommend(req, builtin_profile(profile), *scratch))
    out.emplace_back(c.size.x, c.kernels_total);
  return out;
}

struct PadRow {
  index_t n;
  std::vector<SizeK> cuda12, portable, cuda8;
};

// The first table of docs/fft_advisor.md#worked-examples, verbatim.
const PadRow kPadTable[] = {
    {2273, {{2304, 1}, {2310, 1}, {2352, 1}}, {{2304, 1}, {2352, 1}, {2400, 1}}, {{2304, 2}, {2560, 2}, {2592, 2}}},
    {4096, {{4096, 1}}, {{4096, 1}}, {{4096, 2}}},
    {4097, {{4116, 1}, {4125, 1}, {4158, 1}}, {{4116, 1}, {4200, 1}, {4320, 1}}, {{4608, 2}, {4116, 3}, {4320, 3}}},
    {5000, {{5000, 1}, {5040, 1}, {5082, 1}}, {{5000, 1}, {5040, 1}, {5120, 2}}, {{5120, 2}, {5184, 2}, {5488, 2}}},
    {5104, {{5120, 2}, {5184, 2}, {5324, 2}}, {{5120, 2}, {5184, 2}, {5488, 2}}, {{5120, 2}, {5184, 2}, {5488, 2}}},
    {6000, {{6144, 2}, {6272, 2}, {6000, 3}}, {{6144, 2}, {6272, 2}, {6400, 2}}, {{6272, 2}, {6400, 2}, {6000, 3}}},
    {10007,
     {{10240, 2}, {10368, 2}, {10648, 2}},
     {{10240, 2}, {10368, 2}, {10976, 2}},
     {{10368, 2}, {10976, 2}, {10206, 3}}},
    {445105,
     {{448000, 3}, {451584, 3}, {456192, 3}},
     {{448000, 3}, {451584, 3}, {458752, 3}},
     {{448000, 3}, {451584, 3}, {458752, 3}}},
};

TEST(HeuristicGolden, PadTop3) {
  for (const PadRow& row : kPadTable) {
    SCOPED_TRACE("n = " + std::to_string(row.n));
    EXPECT_EQ(top_1d(row.n, "cuda12", Resize::Pad, std::nullopt, 3), row.cuda12);
    EXPECT_EQ(top_1d(row.n, "portable", Resize::Pad, std::nullopt, 3), row.portable);
    EXPECT_EQ(top_1d(row.n, "cuda8", Resize::Pad, std::nullopt, 3), row.cuda8);
  }
}

TEST(HeuristicGolden, PadDoubleCuda12) {
  EXPECT_EQ(top_1d(2273, "cuda12", Resize::Pad, std::nullopt, 1, Precision::F64), (std::vector<SizeK>{{2304, 2}}));
  EXPECT_EQ(top_1d(4097, "cuda12", Resize::Pad, std::nullopt, 1, Precision::F64), (std::vector<SizeK>{{4116, 3}}));
  EXPECT_EQ(top_1d(445105, "cuda12", Resize::Pad, std::nullopt, 1, Precision::F64),
            (std::vector<SizeK>{{448000, 3}}));
}

std::vector<index_t> sizes(const std::vector<SizeK>& v) {
  std::vector<index_t> out;
  for (const auto& s : v) out.push_back(s.first);
  return out;
}

TEST(HeuristicGolden, Crop10PercentTop3) {
  struct Row {
    index_t n;
    std::vector<index_t> cuda12, portable;
  };
  const Row rows[] = {
      {4096, {4096, 4050, 4032}, {4096, 4050, 4032}},
      {3838, {3780, 3773, 3750}, {3780, 3750, 3600}},
      {7676, {7168, 7546, 7500}, {7168, 6912, 7500}},
      {11520, {11264, 10976, 11520}, {10976, 10368, 11520}},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE("n = " + std::to_string(row.n));
    EXPECT_EQ(sizes(top_1d(row.n, "cuda12", Resize::Crop, 10.0, 3)), row.cuda12);
    EXPECT_EQ(sizes(top_1d(row.n, "portable", Resize::Crop, 10.0, 3)), row.portable);
  }
}

struct Row2d {
  Extent request;
  Resize mode;
  double pct;
  bool square;
  Extent cuda12;
  double cuda12_change;
  Extent portable;
  double portable_change;
};

// The 2D table of docs/fft_advisor.md#worked-examples (float R2C, top 1); the change is printed
// with two decimals there.
const Row2d k2dTable[] = {
    {{4096, 4096, 1}, Resize::Crop, 10, true, {4096, 4096, 1}, 0.00, {4096, 4096, 1}, 0.00},
    {{3838, 3710, 1}, Resize::Crop, 10, false, {3780, 3696, 1}, -1.88, {3780, 3600, 1}, -4.43},
    {{5760, 4092, 1}, Resize::Crop, 10, false, {5632, 4050, 1}, -3.23, {5760, 4050, 1}, -1.03},
    {{11520, 8184, 1}, Resize::Crop, 10, false, {11264, 8100, 1}, -3.23, {11520, 8000, 1}, -2.25},
    {{3838, 3710, 1}, Resize::Pad, 20, false, {3840, 3750, 1}, 1.13, {3840, 3750, 1}, 1.13},
    {{2273, 2273, 1}, Resize::Pad, 10, true, {2304, 2304, 1}, 2.75, {2304, 2304, 1}, 2.75},
};

TEST(HeuristicGolden, TwoDimensionalTop1) {
  auto scratch = worst_case_scratch_model();
  for (const Row2d& row : k2dTable) {
    SCOPED_TRACE(to_string(row.request) + (row.mode == Resize::Pad ? " pad " : " crop ") + std::to_string(row.pct));
    AdvisorRequest req = test::request(row.request, row.mode, row.pct, 1);
    req.square_only = row.square;
    const auto c12 = recommend(req, builtin_profile("cuda12"), *scratch);
    ASSERT_EQ(c12.size(), 1u);
    EXPECT_EQ(c12.front().size, row.cuda12);
    EXPECT_NEAR(c12.front().change_pct, row.cuda12_change, 0.005);
    const auto por = recommend(req, builtin_profile("portable"), *scratch);
    ASSERT_EQ(por.size(), 1u);
    EXPECT_EQ(por.front().size, row.portable);
    EXPECT_NEAR(por.front().change_pct, row.portable_change, 0.005);
  }
}

// The exact window bound matters: 11520 x 0.9 = 10368 exactly, and portable's second crop choice
// sits on it. Floating-point evaluation of the bound could round it to 10369.
TEST(HeuristicGolden, CropBoundIsExact) {
  AdvisorRequest req = test::request({11520, 1, 1}, Resize::Crop, 10.0);
  const auto c = dimension_candidates(req, builtin_profile("portable"), 0, Precision::F32, Kind::R2C);
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front(), 10368);
}

} // namespace
} // namespace frost::fft
