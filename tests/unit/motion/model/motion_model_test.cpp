// MotionModel queries (docs/movie_align.md#querying-the-motion): global part interpolated linearly
// and clamped, residual vs total kinds, raw-pixel wrapper with binning.
#include "frost/motion/motion_model.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

MotionModel model_with_field(LocalModelKind kind) {
  MotionModel m;
  m.global = {{0.0, 0.0}, {-1.0, 2.0}, {-3.0, 2.5}, {-4.0, 4.0}};
  m.kind = kind;
  BSplineField f = BSplineField::make(4, 4, 4, 200.0, 100.0, 4.0);
  // A field linear in x: coefficient l·h·0.01 reproduces 0.01·x (sum l beta(u - l) = u).
  for (int n = -1; n <= 2; ++n)
    for (int r = -1; r <= 2; ++r)
      for (int l = -1; l <= 2; ++l) {
        f.cx[static_cast<std::size_t>(f.index(n, r, l))] = 0.01 * l * f.hx;
        f.cy[static_cast<std::size_t>(f.index(n, r, l))] = -0.5;
      }
  m.local = f;
  return m;
}

TEST(MotionModel, GlobalInterpolationIsLinearAndClamped) {
  MotionModel m;
  m.global = {{0.0, 0.0}, {-1.0, 2.0}, {-3.0, 2.5}};
  EXPECT_EQ(m.frames(), 3);
  EXPECT_DOUBLE_EQ(m.shift(10, 20, 1.0).x, -1.0);
  EXPECT_DOUBLE_EQ(m.shift(10, 20, 1.25).x, -1.5);
  EXPECT_DOUBLE_EQ(m.shift(10, 20, 1.25).y, 2.125);
  EXPECT_DOUBLE_EQ(m.shift(10, 20, -0.7).x, 0.0);  // clamped to the first frame
  EXPECT_DOUBLE_EQ(m.shift(10, 20, 5.0).y, 2.5);   // and to the last
  EXPECT_DOUBLE_EQ(MotionModel{}.shift(1, 2, 3).x, 0.0);
}

TEST(MotionModel, ResidualAddsFieldTotalUsesFieldOnly) {
  const MotionModel residual = model_with_field(LocalModelKind::Residual);
  const MotionModel total = model_with_field(LocalModelKind::Total);
  const Vec2 r = residual.shift(150.0, 30.0, 2.0);
  const Vec2 t = total.shift(150.0, 30.0, 2.0);
  std::printf("residual (%.12g, %.12g), total (%.12g, %.12g)\n", r.x, r.y, t.x, t.y);
  EXPECT_NEAR(t.x, 1.5, 1e-12);  // 0.01 · 150
  EXPECT_NEAR(t.y, -0.5, 1e-12);
  EXPECT_NEAR(r.x, -3.0 + 1.5, 1e-12);
  EXPECT_NEAR(r.y, 2.5 - 0.5, 1e-12);
}

TEST(MotionModel, RawCoordinatesAndShiftsScaleWithBinning) {
  MotionModel m = model_with_field(LocalModelKind::Residual);
  m.binning = 2.0;
  const Vec2 processing = m.shift(75.0, 40.0, 1.5);
  const Vec2 raw = m.shift_raw(150.0, 80.0, 1.5);
  std::printf("processing (%.12g, %.12g) -> raw (%.12g, %.12g)\n", processing.x, processing.y, raw.x, raw.y);
  EXPECT_NEAR(raw.x, 2.0 * processing.x, 1e-12);
  EXPECT_NEAR(raw.y, 2.0 * processing.y, 1e-12);
  EXPECT_NEAR(processing.x, -2.0 + 0.75, 1e-12);
}

} // namespace
} // namespace frost::motion
