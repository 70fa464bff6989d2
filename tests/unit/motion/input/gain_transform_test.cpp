// docs/movie_align.md#unit-checks: a 3x2 gain through each of the 12 rotation/flip combinations
// equals the index formulas of docs/movie_align.md#reference-orientation, written out here
// literally on [row][column] arrays.
#include <vector>

#include "frost/motion/gain_transform.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

using Grid = std::vector<std::vector<float>>; // [row y][column x]

Grid rotate_by_formula(const Grid& in, int rot) {
  const int h = static_cast<int>(in.size()), w = static_cast<int>(in[0].size());
  if (rot == 0) return in;
  Grid out = rot == 2 ? Grid(h, std::vector<float>(w)) : Grid(w, std::vector<float>(h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (rot == 1) out[x][h - 1 - y] = in[y][x];
      if (rot == 2) out[h - 1 - y][w - 1 - x] = in[y][x];
      if (rot == 3) out[w - 1 - x][y] = in[y][x];
    }
  return out;
}

Grid flip_by_formula(const Grid& in, int flip) {
  const int h = static_cast<int>(in.size()), w = static_cast<int>(in[0].size());
  Grid out = in;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (flip == 1) out[y][x] = in[h - 1 - y][x];
      if (flip == 2) out[y][x] = in[y][w - 1 - x];
    }
  return out;
}

Image<float> gain_3x2() {
  Image<float> g(Shape::image(3, 2));
  for (index_t y = 0; y < 2; ++y)
    for (index_t x = 0; x < 3; ++x) g(x, y) = float(10 * y + x + 1); // row 0: 1 2 3, row 1: 11 12 13
  return g;
}

std::string text(const Image<float>& img) {
  std::string s;
  for (index_t y = 0; y < img.shape().y; ++y) {
    for (index_t x = 0; x < img.shape().x; ++x) s += std::to_string(int(img(x, y))) + " ";
    s += "| ";
  }
  return s;
}

TEST(GainTransform, AllTwelveCombinationsFollowTheIndexFormulas) {
  const Image<float> g = gain_3x2();
  Grid in(2, std::vector<float>(3));
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) in[y][x] = g(x, y);
  for (int rot = 0; rot < 4; ++rot)
    for (int flip = 0; flip < 3; ++flip) {
      const GainTransform t{rot, flip};
      const Grid want = flip_by_formula(rotate_by_formula(in, rot), flip);
      const Image<float> got = orient(g.cview(), t);
      std::printf("rot %d flip %d: %s\n", rot, flip, text(got).c_str());
      ASSERT_EQ(got.shape().y, index_t(want.size())) << t.describe();
      ASSERT_EQ(got.shape().x, index_t(want[0].size())) << t.describe();
      index_t ow = 0, oh = 0;
      oriented_size(t, 3, 2, &ow, &oh);
      EXPECT_EQ(ow, got.shape().x);
      EXPECT_EQ(oh, got.shape().y);
      for (index_t y = 0; y < got.shape().y; ++y)
        for (index_t x = 0; x < got.shape().x; ++x)
          EXPECT_EQ(got(x, y), want[std::size_t(y)][std::size_t(x)]) << t.describe() << " at " << x << "," << y;
    }
}

TEST(GainTransform, HandWorkedRotationsOfThe3x2Gain) {
  const Image<float> g = gain_3x2();
  // rot 1: out[x][H-1-y] = in[y][x]: rows of the 2-wide, 3-tall output are (11 1), (12 2), (13 3).
  const Image<float> r1 = orient(g.cview(), {1, 0});
  EXPECT_EQ(text(r1), "11 1 | 12 2 | 13 3 | ");
  // rot 3: out[W-1-x][y] = in[y][x]: (3 13), (2 12), (1 11).
  EXPECT_EQ(text(orient(g.cview(), {3, 0})), "3 13 | 2 12 | 1 11 | ");
  // rot 2 then left-right flip is an upside-down flip of the original.
  EXPECT_EQ(text(orient(g.cview(), {2, 2})), text(orient(g.cview(), {0, 1})));
  // Rotation comes first: rot 1 + flip 1 differs from flip 1 then rot 1 (which is rot 1 + flip 2).
  EXPECT_EQ(text(orient(g.cview(), {1, 1})), "13 3 | 12 2 | 11 1 | ");
  // Defect masks of any element type follow the same mapping.
  Image<std::uint8_t> mask(Shape::image(3, 2));
  mask(0, 1) = 1; // the pixel holding 11
  const Image<std::uint8_t> m1 = orient(mask.cview(), {1, 0});
  EXPECT_EQ(m1(0, 0), 1);
  EXPECT_EQ(int(m1(1, 0)) + m1(0, 1) + m1(1, 1) + m1(0, 2) + m1(1, 2), 0);
}

TEST(GainTransform, OutOfRangeValuesAreUsageErrors) {
  const Image<float> g = gain_3x2();
  try {
    orient(g.cview(), {4, 0});
    FAIL() << "rotation 4 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    std::printf("%s\n", e.what());
  }
  EXPECT_THROW(orient(g.cview(), {0, 3}), Error);
  EXPECT_THROW(validate(GainTransform{-1, 0}), Error);
}

} // namespace
} // namespace frost::motion
