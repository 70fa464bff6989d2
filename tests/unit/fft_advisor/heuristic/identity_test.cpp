// C3 (docs/fft_advisor.md#cpu-tests): sizes that must come back unchanged.
#include <gtest/gtest.h>

#include "frost/fft/heuristic.hpp"
#include "heuristic_test_util.hpp"

namespace frost::fft {
namespace {

// Every power of two 2^1..2^24 in pad mode is the only member of its window: returned unchanged
// under every profile, precision, placement and kind, with and without a percentage limit.
TEST(HeuristicIdentity, PowersOfTwoPadToThemselves) {
  auto scratch = worst_case_scratch_model();
  for (const std::string& name : builtin_profile_names()) {
    const Profile& profile = builtin_profile(name);
    for (int e = 1; e <= 24; ++e) {
      const index_t n = index_t{1} << e;
      for (Precision prec : {Precision::F32, Precision::F64})
        for (Placement place : {Placement::OutOfPlace, Placement::InPlace})
          for (Kind kind : {Kind::R2C, Kind::C2R, Kind::C2C})
            for (std::optional<double> p : {std::optional<double>{}, std::optional<double>{10.0}}) {
              AdvisorRequest req = test::request({n, 1, 1}, Resize::Pad, p);
              req.precisions = {prec};
              req.placements = {place};
              req.kinds = {kind};
              const auto cs = recommend(req, profile, *scratch);
              ASSERT_EQ(cs.size(), 1u) << name << " 2^" << e;
              EXPECT_EQ(cs.front().size, (Extent{n, 1, 1})) << name << " 2^" << e;
              EXPECT_EQ(cs.front().change_pct, 0.0);
            }
    }
  }
}

// 4096 in 1D, 4096^2 and 4096^3 with 1..8 signals returns 4096 in pad and crop mode.
TEST(HeuristicIdentity, Size4096InPadAndCrop) {
  auto scratch = worst_case_scratch_model();
  const Extent shapes[] = {{4096, 1, 1}, {4096, 4096, 1}, {4096, 4096, 4096}};
  for (const std::string& name : builtin_profile_names()) {
    const Profile& profile = builtin_profile(name);
    for (const Extent& shape : shapes)
      for (index_t signals = 1; signals <= 8; ++signals)
        for (Resize mode : {Resize::Pad, Resize::Crop})
          for (std::optional<double> p : {std::optional<double>{}, std::optional<double>{10.0}}) {
            AdvisorRequest req = test::request(shape, mode, p);
            req.signals = signals;
            const auto cs = recommend(req, profile, *scratch);
            ASSERT_FALSE(cs.empty());
            EXPECT_EQ(cs.front().size, shape) << name << " " << to_string(shape) << " signals " << signals;
            EXPECT_EQ(cs.front().batch, signals); // no memory limit: all signals in one batch
          }
  }
}

// Max change 0 means keep: every request returns its input, smooth or not, even or odd.
TEST(HeuristicIdentity, MaxChangeZeroReturnsTheInput) {
  auto scratch = worst_case_scratch_model();
  const Extent shapes[] = {{2273, 1, 1}, {4097, 1, 1}, {6000, 1, 1},    {1, 1, 1},
                           {3838, 3710, 1}, {101, 103, 1}, {99, 98, 97}, {445105, 3, 1}};
  for (const std::string& name : builtin_profile_names()) {
    const Profile& profile = builtin_profile(name);
    for (const Extent& shape : shapes)
      for (Resize mode : {Resize::Pad, Resize::Crop, Resize::Keep})
        for (Kind kind : {Kind::R2C, Kind::C2C}) {
          AdvisorRequest req = test::request(shape, mode, 0.0);
          req.kinds = {kind};
          const auto cs = recommend(req, profile, *scratch);
          ASSERT_EQ(cs.size(), 1u) << name << " " << to_string(shape);
          EXPECT_EQ(cs.front().size, shape) << name << " " << to_string(shape);
          EXPECT_EQ(cs.front().change_pct, 0.0);
          EXPECT_LE(cs.front().kernels_total, 3 * kBadKernels);
        }
  }
}

// With the default tie-break, a size that is admissible and has the minimum estimate of its window
// is returned unchanged in pad and in crop mode (docs/fft_advisor.md#behaviour-contract).
TEST(HeuristicIdentity, MinimumEstimateSizeIsKept) {
  auto scratch = worst_case_scratch_model();
  for (index_t n : {2304, 5000, 4050, 448}) { // one launch under cuda12
    for (Resize mode : {Resize::Pad, Resize::Crop}) {
      const auto cs = recommend(test::request({n, 1, 1}, mode, 10.0), builtin_profile("cuda12"), *scratch);
      EXPECT_EQ(cs.front().size.x, n) << n;
    }
  }
}

} // namespace
} // namespace frost::fft
