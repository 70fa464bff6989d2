// The patch grid of docs/movie_align.md#patch-grid (counts of the FlexAlign paper's Table 3, border
// from the global trajectory, step and starts, half-pixel centres, one centred patch, errors) and
// the `auto` control points.
#include <cmath>

#include "frost/core/error.hpp"
#include "frost/motion/control_points.hpp"
#include "frost/motion/patch_grid.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

PatchGrid grid_for(int width, int height, double pixel_size, std::vector<Vec2> shifts = {}) {
  PatchGridRequest r;
  r.width = width;
  r.height = height;
  r.requested_size = 500.0 / pixel_size; // --minLocalRes 500 Å
  r.patch_size = 2 * static_cast<int>(std::ceil(r.requested_size / 2)) + 12; // a "fast" size >= P_req
  r.global_shifts = std::move(shifts);
  return make_patch_grid(r);
}

TEST(PatchGrid, CountsOfTable3At1AngstromPerPixel) {
  struct Case { int width, height, nx, ny; };
  for (const Case c : {Case{4096, 4096, 9, 9}, Case{3838, 3710, 8, 8}, Case{7676, 7420, 16, 15},
                       Case{5760, 4092, 12, 9}, Case{11520, 8184, 24, 17}}) {
    const PatchGrid g = grid_for(c.width, c.height, 1.0);
    std::printf("%d x %d at 1 A/px: %d x %d patches of %d px\n", c.width, c.height, g.x.count, g.y.count, g.size);
    EXPECT_EQ(g.x.count, c.nx);
    EXPECT_EQ(g.y.count, c.ny);
    EXPECT_EQ(static_cast<int>(g.x.starts.size()), c.nx);
    EXPECT_EQ(static_cast<int>(g.y.centres.size()), c.ny);
  }
  // The Covid-19 example at 1.047 Å/px: the paper quotes 12 x 8, the formula (and Xmipp) 13 x 9.
  const PatchGrid covid = grid_for(5760, 4092, 1.047);
  std::printf("5760 x 4092 at 1.047 A/px: %d x %d\n", covid.x.count, covid.y.count);
  EXPECT_EQ(covid.x.count, 13);
  EXPECT_EQ(covid.y.count, 9);
}

TEST(PatchGrid, FalconBorderStepStartsAndCentres) {
  // Shifts x in [-3.2, 5.7] -> B_x = ceil(5.7) - floor(-3.2) = 10; y in [-1.5, 0.4] -> B_y = 3.
  PatchGridRequest r;
  r.width = 4096;
  r.height = 4096;
  r.requested_size = 500;
  r.patch_size = 512;
  r.global_shifts = {{0.0, 0.0}, {-3.2, 0.4}, {5.7, -1.5}, {2.0, -0.2}};
  const PatchGrid g = make_patch_grid(r);
  std::printf("Falcon: border %d x %d, step %d x %d, first starts %d %d, last %d %d\n", g.x.border, g.y.border,
              g.x.step, g.y.step, g.x.starts.front(), g.y.starts.front(), g.x.starts.back(), g.y.starts.back());
  EXPECT_EQ(g.x.border, 10);
  EXPECT_EQ(g.y.border, 3);
  // step = P - ceil((n·P - W)/(n - 1)): x: W = 4076, ceil(532/8) = 67 -> 445; y: W = 4090, ceil(518/8) = 65 -> 447.
  EXPECT_EQ(g.x.step, 445);
  EXPECT_EQ(g.y.step, 447);
  EXPECT_FALSE(g.border_clamped);
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(g.x.starts[static_cast<std::size_t>(i)], 10 + 445 * i);
    EXPECT_EQ(g.y.starts[static_cast<std::size_t>(i)], 3 + 447 * i);
    EXPECT_DOUBLE_EQ(g.x.centres[static_cast<std::size_t>(i)], 10 + 445 * i + 255.5); // half pixel kept
  }
  // First patch touches the window start, the last one ends within n - 1 px of the window end.
  const int last_end_x = g.x.starts.back() + g.size, last_end_y = g.y.starts.back() + g.size;
  EXPECT_LE(last_end_x, 4096 - 10);
  EXPECT_GT(last_end_x, 4096 - 10 - 8);
  EXPECT_LE(last_end_y, 4096 - 3);
  EXPECT_GT(last_end_y, 4096 - 3 - 8);
  // Patch index p = iy·nx + ix.
  EXPECT_DOUBLE_EQ(g.centre(10).x, g.x.centres[1]);
  EXPECT_DOUBLE_EQ(g.centre(10).y, g.y.centres[1]);
}

TEST(PatchGrid, OnePatchIsCentred) {
  PatchGridRequest r;
  r.width = 600;
  r.height = 520;
  r.requested_size = 700; // n = ceil(600/700) = 1 on both axes
  r.patch_size = 512;
  r.global_shifts = {{0, 0}, {7.5, -9.1}};
  const PatchGrid g = make_patch_grid(r);
  std::printf("600 x 520, P_req 700, P 512: %d x %d patch, start (%d, %d), centre (%g, %g)\n", g.x.count, g.y.count,
              g.x.starts[0], g.y.starts[0], g.x.centres[0], g.y.centres[0]);
  ASSERT_EQ(g.count(), 1);
  EXPECT_EQ(g.x.starts[0], 44);
  EXPECT_EQ(g.y.starts[0], 4);
  EXPECT_DOUBLE_EQ(g.x.centres[0], 299.5); // (600 - 1)/2: the frame centre
  EXPECT_DOUBLE_EQ(g.y.centres[0], 259.5);
  EXPECT_EQ(g.x.step, 0);
}

TEST(PatchGrid, ExplicitCountsAndErrors) {
  PatchGridRequest r;
  r.width = 1024;
  r.height = 1024;
  r.patch_size = 256;
  r.count_x = 5;
  r.count_y = 5;
  const PatchGrid g = make_patch_grid(r); // --patches 5 5 --minLocalRes 256, as the local-accuracy tests
  // W = 1024, step = 256 - ceil((1280 - 1024)/4) = 192: starts 0, 192, ..., 768 (last ends at 1024).
  EXPECT_EQ(g.x.step, 192);
  EXPECT_EQ(g.x.starts.back(), 768);
  EXPECT_DOUBLE_EQ(g.y.centres[2], 384 + 127.5);

  // A border that leaves no room for a patch is shrunk (and reported).
  r.global_shifts = {{0, 0}, {400, 0}};
  const PatchGrid clamped = make_patch_grid(r);
  std::printf("border 400 with P 256 in 1024: clamped %d, border %d, starts %d..%d\n", clamped.border_clamped,
              clamped.x.border, clamped.x.starts.front(), clamped.x.starts.back());
  EXPECT_TRUE(clamped.border_clamped);
  EXPECT_EQ(clamped.x.border, 384);
  EXPECT_GE(clamped.x.starts.front(), 0);
  EXPECT_LE(clamped.x.starts.back() + 256, 1024);

  PatchGridRequest too_small;
  too_small.width = 400;
  too_small.height = 4096;
  too_small.requested_size = 500;
  too_small.patch_size = 512;
  try {
    make_patch_grid(too_small);
    FAIL() << "P > X accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    std::printf("P > X: %s\n", e.what());
  }
  PatchGridRequest nothing;
  nothing.width = 100;
  nothing.height = 100;
  EXPECT_THROW(make_patch_grid(nothing), Error);
}

TEST(ControlPoints, DefaultAndAutoRule) {
  const ControlPoints d;
  EXPECT_EQ(d.x, 6);
  EXPECT_EQ(d.y, 6);
  EXPECT_EQ(d.t, 5);
  const ControlPoints falcon = auto_control_points(4096, 4096, 1.0, 40);
  std::printf("auto: Falcon 4096^2 at 1 A, 40 frames -> %dx%dx%d\n", falcon.x, falcon.y, falcon.t);
  EXPECT_EQ(falcon.x, 6);
  EXPECT_EQ(falcon.y, 6);
  EXPECT_EQ(falcon.t, 8);
  const ControlPoints small = auto_control_points(1024, 1024, 0.5, 7);
  EXPECT_EQ(small.x, 3); // floor(0.512) + 2 = 2 -> at least 3
  EXPECT_EQ(small.t, 3); // ceil(7/7) + 2
  const ControlPoints k3 = auto_control_points(5760, 4092, 0.83, 50);
  EXPECT_EQ(k3.x, 6);  // floor(4.78) + 2
  EXPECT_EQ(k3.y, 5);  // floor(3.40) + 2
  EXPECT_EQ(k3.t, 10); // ceil(50/7) + 2
  // Binned size with binned pixel size gives the same answer.
  const ControlPoints binned = auto_control_points(2048, 2048, 2.0, 40);
  EXPECT_EQ(binned.x, falcon.x);
  EXPECT_THROW(auto_control_points(4096, 4096, 0.0, 40), Error);
}

} // namespace
} // namespace frost::motion
