// Patch image stacks (docs/movie_align.md#patch-stacks-and-the-rounding-correction; Xmipp
// getPatchData plus the rounding correction that Xmipp lacks, quirk 2 of
// docs/movie_align.md#known-quirks-of-the-reference-programs-we-do-not-copy).
#include "frost/motion/patch_stack.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "frost/core/error.hpp"
#include "frost/motion/patch_stack_math.hpp"

namespace frost::motion {

FrameWindow patch_window(int t, int frames, int average) {
  if (average < 1) throw_usage_error("--patchesAvg must be at least 1 (got " + std::to_string(average) + ")");
  FrameWindow w;
  w.first = patch_window_first(t, average);
  w.last = patch_window_last(t, frames, average);
  return w;
}

PatchOffsets patch_offsets(const std::vector<Vec2>& shifts, int average) {
  const int n = static_cast<int>(shifts.size());
  PatchOffsets o;
  o.average = average;
  o.x.resize(shifts.size());
  o.y.resize(shifts.size());
  o.residual.resize(shifts.size());
  for (int f = 0; f < n; ++f) {
    const double dx = -shifts[static_cast<std::size_t>(f)].x, dy = -shifts[static_cast<std::size_t>(f)].y;
    const double rx = std::round(dx), ry = std::round(dy);
    o.x[static_cast<std::size_t>(f)] = static_cast<int>(rx);
    o.y[static_cast<std::size_t>(f)] = static_cast<int>(ry);
    o.residual[static_cast<std::size_t>(f)] = {dx - rx, dy - ry};
  }
  o.window_mean_residual.resize(shifts.size());
  for (int t = 0; t < n; ++t) {
    const FrameWindow w = patch_window(t, n, average);
    Vec2 mean;
    for (int f = w.first; f <= w.last; ++f) {
      mean.x += o.residual[static_cast<std::size_t>(f)].x;
      mean.y += o.residual[static_cast<std::size_t>(f)].y;
    }
    o.window_mean_residual[static_cast<std::size_t>(t)] = {mean.x / w.size(), mean.y / w.size()};
  }
  return o;
}

void fill_patch_stack(const std::vector<View<const float>>& frames, const PatchOffsets& offsets, int x0, int y0,
                      View<float> stack) {
  const int n = static_cast<int>(frames.size());
  FROST_EXPECTS(n > 0 && stack.shape.n == n, "fill_patch_stack: the stack must be P x P x 1 x N");
  FROST_EXPECTS(offsets.x.size() == frames.size() && offsets.y.size() == frames.size(),
                "fill_patch_stack: one offset per frame");
  std::fill(stack.data, stack.data + stack.shape.total(), 0.0f);
  for (int f = 0; f < n; ++f) {
    FROST_EXPECTS(frames[static_cast<std::size_t>(f)].shape.x == frames[0].shape.x &&
                      frames[static_cast<std::size_t>(f)].shape.y == frames[0].shape.y,
                  "fill_patch_stack: frames differ in size");
    add_frame_to_patch_stack(frames[static_cast<std::size_t>(f)], f, offsets, x0, y0, stack);
  }
}

void add_frame_to_patch_stack(View<const float> frame, int f, const PatchOffsets& offsets, int x0, int y0,
                              View<float> stack) {
  const int n = static_cast<int>(stack.shape.n);
  const index_t p = stack.shape.x;
  FROST_EXPECTS(n > 0 && stack.shape.y == p && stack.shape.z == 1, "fill_patch_stack: the stack must be P x P x 1 x N");
  FROST_EXPECTS(offsets.x.size() == static_cast<std::size_t>(n) && offsets.y.size() == static_cast<std::size_t>(n) &&
                    f >= 0 && f < n,
                "fill_patch_stack: one offset per frame");
  const index_t width = frame.shape.x, height = frame.shape.y;
  const index_t sx = x0 + offsets.x[static_cast<std::size_t>(f)];
  const index_t sy = y0 + offsets.y[static_cast<std::size_t>(f)];
  const bool inside = sx >= 0 && sy >= 0 && sx + p <= width && sy + p <= height;
  std::vector<index_t> columns;
  if (!inside)
    for (index_t u = 0; u < p; ++u) columns.push_back(clamp_to_frame(sx + u, width));
  // Every item whose window W(t) holds f.
  for (int t = 0; t < n; ++t) {
    const FrameWindow w = patch_window(t, n, offsets.average);
    if (f < w.first || f > w.last) continue;
    View<float> image = stack.item(t);
    for (index_t v = 0; v < p; ++v) {
      float* out = &image(0, v);
      if (inside) {
        const float* in = &frame(sx, sy + v);
        for (index_t u = 0; u < p; ++u) out[u] += in[u];
      } else {
        const index_t row = clamp_to_frame(sy + v, height);
        for (index_t u = 0; u < p; ++u) out[u] += frame(columns[static_cast<std::size_t>(u)], row);
      }
    }
  }
}

} // namespace frost::motion
