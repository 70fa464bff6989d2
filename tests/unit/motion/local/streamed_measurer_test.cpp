// --low-memory stages (docs/movie_align.md#binning-and-memory): frames loaded on demand give the results of
// frames held in memory bit for bit: add_frame_to_patch_stack streamed in frame order equals
// fill_patch_stack (also at the frame edge), and the global and local alignments through
// StreamedPairMeasurer / StreamedPatchMeasurer equal those through the host measurers, with
// patch batches of any size; each frame is loaded once per measurement (per batch for patches).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "frost/motion/global_alignment.hpp"
#include "frost/motion/local_alignment.hpp"
#include "frost/motion/pair_measurer.hpp"
#include "frost/motion/patch_measurer.hpp"
#include "frost/simulate/movie.hpp"

namespace frost::motion {
namespace {

/// T3 (local motion), 512² x 10, dose 4.
const sim::SimulatedMovie& movie() {
  static const sim::SimulatedMovie m = [] {
    sim::MovieSetup s;
    s.nx = s.ny = 512;
    s.frames = 10;
    s.dose = 4;
    s.contrast = 0.2;
    s.trajectory = sim::TrajectoryKind::T3;
    s.seed = 9;
    return sim::simulate_movie(s);
  }();
  return m;
}

LocalSettings settings() {
  LocalSettings s;
  s.correlation.pixel_size = 1.0;
  s.correlation.max_resolution = 30;
  s.correlation.max_shift = 50;
  s.min_local_resolution = 200;
  s.patches_x = s.patches_y = 2;
  s.control_points = {4, 4, 4};
  return s;
}

/// A loader over the simulated frames that counts its calls.
struct CountingLoader {
  std::atomic<long long> calls{0};
  FrameLoader loader() {
    return [this](int t, float* out) {
      ++calls;
      const View<const float> f = movie().frames.cview().item(t);
      std::memcpy(out, f.data, sizeof(float) * static_cast<std::size_t>(f.shape.total()));
    };
  }
};

TEST(StreamedPatchStack, FramesAddedInOrderEqualFillPatchStack) {
  const Image<float>& frames = movie().frames;
  std::vector<View<const float>> views;
  for (index_t t = 0; t < frames.shape().n; ++t) views.push_back(frames.cview().item(t));
  std::vector<Vec2> shifts;
  for (int t = 0; t < 10; ++t) shifts.push_back({-1.3 * t, 0.7 * t});
  const PatchOffsets offsets = patch_offsets(shifts, 3);
  for (const auto& [x0, y0] : {std::pair<int, int>{100, 120}, {0, 0}, {480, 490}}) { // the last two clamp
    Image<float> filled(Shape::image(64, 64, 10)), streamed(Shape::image(64, 64, 10));
    fill_patch_stack(views, offsets, x0, y0, filled.view());
    for (int f = 0; f < 10; ++f) add_frame_to_patch_stack(views[static_cast<std::size_t>(f)], f, offsets, x0, y0, streamed.view());
    EXPECT_EQ(std::memcmp(filled.data(), streamed.data(), sizeof(float) * static_cast<std::size_t>(filled.size())), 0)
        << "corner " << x0 << "," << y0;
  }
}

TEST(StreamedMeasurers, GlobalAndLocalAlignmentEqualTheHostMeasurers) {
  const sim::SimulatedMovie& m = movie();
  const LocalSettings ls = settings();
  const GlobalAlignment g = align_global(m.frames.cview(), ls.correlation);
  const LocalAlignment host = align_local(m.frames.cview(), g, ls);
  const Size2 size{512, 512};

  CountingLoader pair_frames;
  StreamedPairMeasurer pairs(pair_frames.loader(), 10, size);
  const GlobalAlignment gs = align_global(pairs, ls.correlation);
  ASSERT_EQ(gs.shifts.size(), g.shifts.size());
  for (std::size_t t = 0; t < g.shifts.size(); ++t) {
    EXPECT_EQ(gs.shifts[t].x, g.shifts[t].x) << t;
    EXPECT_EQ(gs.shifts[t].y, g.shifts[t].y) << t;
  }
  EXPECT_EQ(pair_frames.calls % 10, 0);

  // Budgets for one patch per batch, two, and all four.
  const std::size_t one_stack = static_cast<std::size_t>(host.grid.size) * host.grid.size * 10 * sizeof(float);
  for (const std::size_t budget : {std::size_t(1), 2 * one_stack, 100 * one_stack}) {
    CountingLoader patch_frames;
    StreamedPatchMeasurer patches(patch_frames.loader(), 10, size, budget);
    const LocalAlignment streamed = align_local(patches, g, ls);
    const long long batches = budget == 1 ? 4 : budget == 2 * one_stack ? 2 : 1;
    std::printf("stack budget %zu bytes: %lld frames loaded for %d patches\n", budget,
                static_cast<long long>(patch_frames.calls), host.grid.count());
    EXPECT_EQ(patches.frames_loaded(), 10 * batches);
    EXPECT_EQ(patch_frames.calls, 10 * batches);
    ASSERT_EQ(streamed.measurements.size(), host.measurements.size());
    for (std::size_t i = 0; i < host.measurements.size(); ++i) {
      EXPECT_EQ(streamed.measurements[i].shift.x, host.measurements[i].shift.x) << i;
      EXPECT_EQ(streamed.measurements[i].shift.y, host.measurements[i].shift.y) << i;
    }
    ASSERT_EQ(streamed.model.local.has_value(), host.model.local.has_value());
    if (host.model.local) {
      EXPECT_EQ(streamed.model.local->cx, host.model.local->cx);
    }
  }
}

} // namespace
} // namespace frost::motion
