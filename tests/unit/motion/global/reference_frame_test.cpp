// Reference frame of docs/movie_align.md#reference-frame and the sign of the shifts to apply
// (docs/conventions.md#shifts).
#include <gtest/gtest.h>

#include "frost/core/error.hpp"
#include "frost/motion/reference_frame.hpp"

namespace frost::motion {
namespace {

TEST(ReferenceFrame, MinimaxUsesTheEuclideanNorm) {
  // x alone would pick frame 1 (x spread 0..4, frame 1 at x = 2); with y, frame 2 is closer to all.
  const std::vector<Vec2> d{{0, 0}, {2, 6}, {2, 3}, {4, 3}, {1, 5}};
  EXPECT_EQ(choose_reference(d, ReferenceRule::Minimax), 2);
  EXPECT_EQ(choose_reference(d, ReferenceRule::First), 0);
  EXPECT_EQ(choose_reference(d, ReferenceRule::Middle), 2);
  EXPECT_EQ(choose_reference(d, ReferenceRule::Index, 4), 4);
  EXPECT_THROW(choose_reference(d, ReferenceRule::Index, 5), Error);
  EXPECT_THROW(choose_reference(d, ReferenceRule::Index, -1), Error);
}

TEST(ReferenceFrame, ShiftsAreMinusDisplacementFromTheReference) {
  const std::vector<Vec2> d{{0, 0}, {1, -2}, {3, 0.5}};
  const auto s = shifts_to_apply(d, 1);
  EXPECT_DOUBLE_EQ(s[1].x, 0.0);
  EXPECT_DOUBLE_EQ(s[1].y, 0.0);
  EXPECT_DOUBLE_EQ(s[0].x, 1.0);   // -(0 - 1)
  EXPECT_DOUBLE_EQ(s[0].y, -2.0);  // -(0 + 2)
  EXPECT_DOUBLE_EQ(s[2].x, -2.0);
  EXPECT_DOUBLE_EQ(s[2].y, -2.5);
}

TEST(ReferenceFrame, ParsesTheCommandLineForms) {
  GlobalSettings s;
  parse_reference("middle", s);
  EXPECT_EQ(s.reference, ReferenceRule::Middle);
  parse_reference("7", s);
  EXPECT_EQ(s.reference, ReferenceRule::Index);
  EXPECT_EQ(s.reference_index, 7);
  parse_reference("MINIMAX", s);
  EXPECT_EQ(s.reference, ReferenceRule::Minimax);
  EXPECT_THROW(parse_reference("centre", s), Error);
  EXPECT_THROW(parse_reference("-1", s), Error);
  EXPECT_EQ(parse_subpixel("centroid3"), SubpixelMethod::Centroid3);
  EXPECT_THROW(parse_subpixel("gauss5"), Error);
  EXPECT_EQ(parse_fft_size_rule("exact"), FftSizeRule::Exact);
  EXPECT_EQ(parse_global_mode("sum"), GlobalMode::Sum);
}

} // namespace
} // namespace frost::motion
