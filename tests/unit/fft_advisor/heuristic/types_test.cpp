// The advisor's vocabulary: extents as text, factorisation, a candidate's FftSpec.
#include <gtest/gtest.h>

#include "frost/core/error.hpp"
#include "frost/fft/advisor_types.hpp"

namespace frost::fft {
namespace {

TEST(HeuristicTypes, ExtentText) {
  EXPECT_EQ(to_string(Extent{2304, 1, 1}), "2304x1x1");
  EXPECT_EQ(parse_extent("2304"), (Extent{2304, 1, 1}));
  EXPECT_EQ(parse_extent("3838x3710"), (Extent{3838, 3710, 1}));
  EXPECT_EQ(parse_extent("64x32x16"), (Extent{64, 32, 16}));
  for (const char* bad : {"", "x", "0", "12x", "1x2x3x4", "-5", "12xa", "3.5", "99999999999999999999"}) {
    try {
      parse_extent(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::Usage) << bad;
    }
  }
}

TEST(HeuristicTypes, Factorize) {
  EXPECT_EQ(factorize(1), (std::map<int, int>{}));
  EXPECT_EQ(factorize(2304), (std::map<int, int>{{2, 8}, {3, 2}}));
  EXPECT_EQ(factorize(10648), (std::map<int, int>{{2, 3}, {11, 3}}));
  EXPECT_EQ(factorize(2273), (std::map<int, int>{{2273, 1}}));
  EXPECT_EQ(factorize(445105), (std::map<int, int>{{5, 1}, {89021, 1}}));
}

TEST(HeuristicTypes, CandidateSpecImpliesDirections) {
  Candidate c;
  c.size = {64, 32, 1};
  c.batch = 4;
  c.kind = Kind::C2R;
  c.direction = Direction::Forward; // ignored for real kinds
  c.placement = Placement::InPlace;
  c.precision = Precision::F64;
  const FftSpec s = c.spec();
  EXPECT_EQ(s.x, 64);
  EXPECT_EQ(s.y, 32);
  EXPECT_EQ(s.batch, 4);
  EXPECT_EQ(s.direction, Direction::Inverse);
  EXPECT_EQ(s.placement, Placement::InPlace);
  EXPECT_EQ(s.precision, Precision::F64);
  c.kind = Kind::C2C;
  c.direction = Direction::Inverse;
  EXPECT_EQ(c.spec().direction, Direction::Inverse);
  c.kind = Kind::R2C;
  EXPECT_EQ(c.spec().direction, Direction::Forward);
}

} // namespace
} // namespace frost::fft
