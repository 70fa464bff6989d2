// The CPU render's float prefilter and interior fast path (docs/movie_align.md#the-cpu-render)
// against the straightforward references: geom::bspline_coefficients_2d (double, line by line)
// and bspline_sample (double, mirrored taps) on random non-trivial frames. Stated tolerances: the
// coefficients within 2e-6 of their scale (max |difference| / max |coefficient|), the warped
// frame within 2e-6 of the frame's scale, over sizes that exercise odd widths, partial strips
// and partial row blocks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "frost/geometry/bspline.hpp"
#include "frost/motion/frame_shift.hpp"
#include "frost/motion/warp_frame.hpp"
#include "frost/motion/warp_math.hpp"
#include "frost/motion/warp_prefilter.hpp"

namespace frost::motion {
namespace {

Image<float> prefilter_test_frame(index_t nx, index_t ny, std::uint32_t seed) {
  Image<float> f(Shape::image(nx, ny));
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(3.f, 2.f); // a mean, as counts have, and white noise
  for (index_t i = 0; i < f.size(); ++i) f[i] = g(rng);
  return f;
}

double prefilter_max_abs(const Image<float>& a) {
  double m = 0;
  for (index_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(double(a[i])));
  return m;
}

TEST(WarpPrefilter, FloatCoefficientsMatchTheDoubleFilter) {
  for (const auto& [nx, ny] : {std::pair<index_t, index_t>{16, 16}, {17, 40}, {130, 71}, {257, 96}}) {
    const Image<float> f = prefilter_test_frame(nx, ny, static_cast<std::uint32_t>(nx * 7 + ny));
    const Image<float> ref = geom::bspline_coefficients_2d(f.cview());
    const Image<float> got = bspline_coefficients_float(f.cview());
    double worst = 0;
    for (index_t i = 0; i < f.size(); ++i) worst = std::max(worst, std::abs(double(got[i]) - ref[i]));
    const double rel = worst / prefilter_max_abs(ref);
    std::printf("[ measured ] %ldx%ld: max |float - double| / max |c| = %.2e\n", long(nx), long(ny), rel);
    EXPECT_LE(rel, 2e-6);
  }
}

TEST(WarpPrefilter, LanesEqualOneLineAtATime) {
  // 5 lines side by side give each line's own result (lanes are independent).
  const index_t n = 33, lanes = 5;
  const Image<float> f = prefilter_test_frame(lanes, n, 9);
  Image<float> side = prefilter_test_frame(lanes, n, 9);
  detail::prefilter_lanes(side.data(), n, lanes, lanes);
  for (index_t l = 0; l < lanes; ++l) {
    std::vector<float> one(static_cast<std::size_t>(n));
    for (index_t k = 0; k < n; ++k) one[static_cast<std::size_t>(k)] = f[k * lanes + l];
    detail::prefilter_lanes(one.data(), n, 1, 1);
    for (index_t k = 0; k < n; ++k) EXPECT_EQ(one[static_cast<std::size_t>(k)], side[k * lanes + l]);
  }
}

void prefilter_check_field_warp(const char* label) {
  // A smooth varying shift with positions leaving the frame at the edges: interior pixels take
  // the float path, edge pixels the mirrored double path; both against bspline_sample on the
  // double filter's coefficients.
  const index_t nx = 203, ny = 150;
  const Image<float> f = prefilter_test_frame(nx, ny, 4);
  auto field = [&](double x, double y) { return Vec2{2.3 + 1.7 * std::sin(x / 40.0), -1.1 + 2.9 * std::cos(y / 33.0)}; };
  const Image<float> got = warp_frame(f.cview(), FrameShift::from_field(field), InterpolationMethod::BSpline3);
  const Image<float> coeffs = geom::bspline_coefficients_2d(f.cview());
  double worst = 0;
  for (index_t y = 0; y < ny; ++y)
    for (index_t x = 0; x < nx; ++x) {
      const Vec2 s = field(double(x), double(y));
      const float ref = bspline_sample(coeffs.data(), nx, ny, double(x) - s.x, double(y) - s.y);
      worst = std::max(worst, std::abs(double(got(x, y)) - ref));
    }
  const double rel = worst / prefilter_max_abs(f);
  std::printf("[ measured ] field warp (%s row): max |fast - double| / max |frame| = %.2e\n", label, rel);
  EXPECT_LE(rel, 2e-6) << label;
}

TEST(WarpPrefilter, FieldWarpMatchesDoubleSampling) {
  prefilter_check_field_warp("default");
  setenv("FROST_CPU_WARP", "scalar", 1);
  prefilter_check_field_warp("scalar");
  unsetenv("FROST_CPU_WARP");
}

} // namespace
} // namespace frost::motion
