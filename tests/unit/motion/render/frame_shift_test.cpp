// FrameShift: the per-frame shift field the warp evaluates must equal the motion model of
// docs/movie_align.md#the-b-spline-motion-model (s = −d_t + s_loc in residual mode, s_loc in total
// mode) at every pixel, whether evaluated per pixel (at) or through the column table (row).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/motion/frame_shift.hpp"

namespace frost::motion {
namespace {

/// The model written out: the full triple sum over every control point.
Vec2 direct_field(const BSplineField& f, double x, double y, double t) {
  Vec2 s;
  for (int n = -1; n <= f.lt - 2; ++n)
    for (int m = -1; m <= f.ly - 2; ++m)
      for (int l = -1; l <= f.lx - 2; ++l) {
        const double b = bspline_basis(t / f.ht - n) * bspline_basis(y / f.hy - m) * bspline_basis(x / f.hx - l);
        s.x += b * f.cx[static_cast<std::size_t>(f.index(n, m, l))];
        s.y += b * f.cy[static_cast<std::size_t>(f.index(n, m, l))];
      }
  return s;
}

/// A 200 x 150 px, 12-frame model with random global shifts and random B-spline coefficients.
MotionModel random_model(LocalModelKind kind, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  MotionModel m;
  m.first_frame = 2;
  for (int t = 0; t < 12; ++t) m.global.push_back({u(rng), u(rng)});
  BSplineField f;
  f.lx = 5;
  f.ly = 4;
  f.lt = 5;
  f.hx = 200.0 / (f.lx - 3);
  f.hy = 150.0 / (f.ly - 3);
  f.ht = 12.0 / (f.lt - 3);
  for (int i = 0; i < f.size(); ++i) {
    f.cx.push_back(u(rng));
    f.cy.push_back(u(rng));
  }
  m.local = f;
  m.kind = kind;
  return m;
}

TEST(FrameShift, ModelFieldMatchesTripleSumInBothModes) {
  const index_t width = 200, height = 150;
  for (LocalModelKind kind : {LocalModelKind::Residual, LocalModelKind::Total}) {
    const MotionModel model = random_model(kind, kind == LocalModelKind::Residual ? 5u : 6u);
    double worst_at = 0, worst_row = 0;
    std::vector<double> sx(width), sy(width);
    for (int t : {0, 3, 7, 11}) {
      const FrameShift shift = FrameShift::from_model(model, t, width);
      EXPECT_FALSE(shift.is_constant());
      const Vec2 g = kind == LocalModelKind::Residual ? model.global[static_cast<std::size_t>(t)] : Vec2{};
      for (index_t y : {index_t{0}, index_t{37}, index_t{75}, height - 1}) {
        shift.row(y, width, sx.data(), sy.data());
        for (index_t x = 0; x < width; ++x) {
          const Vec2 ref = direct_field(*model.local, static_cast<double>(x), static_cast<double>(y), t);
          const Vec2 a = shift.at(static_cast<double>(x), static_cast<double>(y));
          worst_at = std::max({worst_at, std::abs(a.x - g.x - ref.x), std::abs(a.y - g.y - ref.y)});
          worst_row = std::max({worst_row, std::abs(sx[static_cast<std::size_t>(x)] - g.x - ref.x),
                                std::abs(sy[static_cast<std::size_t>(x)] - g.y - ref.y)});
        }
      }
    }
    std::printf("[ measured ] %s: max |at - model| = %.3g px, max |row - model| = %.3g px\n",
                kind == LocalModelKind::Residual ? "residual" : "total", worst_at, worst_row);
    EXPECT_LT(worst_at, 1e-12);
    EXPECT_LT(worst_row, 1e-12);
  }
}

TEST(FrameShift, GlobalOnlyModelIsConstantAndZeroIsDetected) {
  MotionModel m;
  m.global = {{0.0, 0.0}, {1.25, -0.5}};
  const FrameShift s0 = FrameShift::from_model(m, 0, 64);
  const FrameShift s1 = FrameShift::from_model(m, 1, 64);
  EXPECT_TRUE(s0.is_constant());
  EXPECT_TRUE(s0.is_zero());
  EXPECT_TRUE(s1.is_constant());
  EXPECT_FALSE(s1.is_zero());
  EXPECT_EQ(s1.constant_shift().x, 1.25);
  EXPECT_EQ(s1.constant_shift().y, -0.5);
  EXPECT_EQ(s1.at(10.0, 3.0).x, 1.25);
  EXPECT_FALSE(FrameShift::from_field([](double, double) { return Vec2{}; }).is_zero());
}

TEST(FrameShift, RejectsFramesOutsideTheModelAndWrongWidth) {
  const MotionModel model = random_model(LocalModelKind::Residual, 9);
  EXPECT_THROW(FrameShift::from_model(model, -1, 200), Error);
  EXPECT_THROW(FrameShift::from_model(model, 12, 200), Error);
  const FrameShift shift = FrameShift::from_model(model, 4, 200);
  std::vector<double> sx(300), sy(300);
  EXPECT_THROW(shift.row(0, 300, sx.data(), sy.data()), Error);
  EXPECT_THROW(FrameShift::from_field(FrameShift::Field{}), Error);
  EXPECT_THROW(shift.constant_shift(), Error);
  EXPECT_THROW(FrameShift::constant({std::nan(""), 0.0}), Error);
}

// The same field through the model library's own query (MotionModel::shift): the warp must
// apply exactly what the stored model says.
TEST(FrameShift, EqualsMotionModelShift) {
  const index_t width = 200;
  double worst = 0;
  std::vector<double> sx(width), sy(width);
  for (LocalModelKind kind : {LocalModelKind::Residual, LocalModelKind::Total}) {
    const MotionModel model = random_model(kind, 12);
    for (int t = 0; t < model.frames(); ++t) {
      const FrameShift shift = FrameShift::from_model(model, t, width);
      for (index_t y = 0; y < 150; y += 7) {
        shift.row(y, width, sx.data(), sy.data());
        for (index_t x = 0; x < width; ++x) {
          const Vec2 ref = model.shift(static_cast<double>(x), static_cast<double>(y), t);
          worst = std::max({worst, std::abs(sx[static_cast<std::size_t>(x)] - ref.x),
                            std::abs(sy[static_cast<std::size_t>(x)] - ref.y)});
        }
      }
    }
  }
  std::printf("[ measured ] max |FrameShift - MotionModel::shift| = %.3g px\n", worst);
  EXPECT_LT(worst, 1e-12);
}

} // namespace
} // namespace frost::motion
