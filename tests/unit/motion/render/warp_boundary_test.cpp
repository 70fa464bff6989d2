// What the warp does outside the frame (docs/movie_align.md#warping-a-frame) and its shortcuts and checks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "frost/core/error.hpp"
#include "frost/motion/warp_frame.hpp"
#include "render_test_images.hpp"

namespace frost::motion {
namespace {

using test_images::band_limited_noise;

// bspline3 reflects outside positions about the edge pixel centres: with an integer shift of
// +3 px in x, A(x) = F(x − 3), so column 0 reads F(−3) = F(3), column 1 reads F(−2) = F(2), and
// the interior is the exact roll (the spline interpolates its samples). Same in y with −2.
TEST(WarpBoundary, BSpline3MirrorsOutsideTheFrame) {
  const Image<float> frame = band_limited_noise(40, 36, 0.4, 7);
  const index_t nx = 40, ny = 36;
  const Image<float> out = warp_frame(frame.cview(), FrameShift::constant({3.0, -2.0}), InterpolationMethod::BSpline3);
  const auto mirror = [](index_t i, index_t n) { return i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i; };
  double worst = 0;
  for (index_t y = 0; y < ny; ++y)
    for (index_t x = 0; x < nx; ++x)
      worst = std::max(worst, static_cast<double>(std::abs(out(x, y) - frame(mirror(x - 3, nx), mirror(y + 2, ny)))));
  std::printf("[ measured ] integer shift with mirror: max |error| = %.2e\n", worst);
  EXPECT_LT(worst, 1e-5);
}

// bilinear (RELION): a sample whose 2x2 footprint leaves the frame takes the clamped floor
// pixel as it is; inside it interpolates.
TEST(WarpBoundary, BilinearClampsToTheEdgePixel) {
  Image<float> frame(Shape::image(6, 5));
  for (index_t y = 0; y < 5; ++y)
    for (index_t x = 0; x < 6; ++x) frame(x, y) = static_cast<float>(10 * y + x);
  const Image<float> out = warp_frame(frame.cview(), FrameShift::constant({1.25, -0.5}), InterpolationMethod::Bilinear);
  // Pixel (0, 0) samples (−1.25, 0.5): outside in x, so the pixel at (0, 0) unmixed.
  EXPECT_FLOAT_EQ(out(0, 0), frame(0, 0));
  // Pixel (3, 1) samples (1.75, 1.5): inside; a linear ramp is reproduced exactly.
  EXPECT_NEAR(out(3, 1), 10 * 1.5 + 1.75, 1e-5);
  // Pixel (2, 4) samples (0.75, 4.5): beyond the last row, so the clamped pixel (0, 4).
  EXPECT_FLOAT_EQ(out(2, 4), frame(0, 4));
  std::printf("[ measured ] bilinear edge values %.2f %.2f %.2f\n", out(0, 0), out(3, 1), out(2, 4));
}

TEST(WarpBoundary, ZeroShiftCopiesTheFrame) {
  const Image<float> frame = band_limited_noise(50, 30, 0.45, 2);
  for (InterpolationMethod m : {InterpolationMethod::BSpline3, InterpolationMethod::Bilinear, InterpolationMethod::Fourier}) {
    const Image<float> out = warp_frame(frame.cview(), FrameShift::constant({0.0, 0.0}), m);
    EXPECT_EQ(std::memcmp(out.data(), frame.data(), sizeof(float) * static_cast<std::size_t>(frame.size())), 0)
        << to_string(m);
  }
}

TEST(WarpBoundary, RejectsBadShapesAndNames) {
  const Image<float> frame = band_limited_noise(16, 16, 0.4, 1);
  Image<float> small(Shape::image(16, 15));
  EXPECT_THROW(warp_frame(frame.cview(), FrameShift::constant({1, 0}), InterpolationMethod::BSpline3, small.view()), Error);
  const Image<float> stack(Shape::image(16, 16, 2));
  EXPECT_THROW(warp_frame(stack.cview(), FrameShift::constant({1, 0}), InterpolationMethod::BSpline3), Error);
  EXPECT_EQ(parse_interpolation_method("bspline3"), InterpolationMethod::BSpline3);
  EXPECT_EQ(parse_interpolation_method("fourier"), InterpolationMethod::Fourier);
  try {
    parse_interpolation_method("cubic");
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
  }
}

} // namespace
} // namespace frost::motion
