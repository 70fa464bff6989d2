// The local-alignment patch grid (docs/movie_align.md#patch-grid; Xmipp setNoOfPatches and
// getPatchesLocation, without their integer truncations and the n = 1 division by zero).
#include "frost/motion/patch_grid.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "frost/core/error.hpp"

namespace frost::motion {

namespace {

/// ceil(a / b) for b > 0 and any sign of a.
int ceil_div(int a, int b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

/// ceil(max) - floor(min) of one component of the trajectory: every frame moved by its rounded
/// global shift still covers a patch placed this far from the edges.
int border_of(const std::vector<Vec2>& shifts, double Vec2::*component) {
  if (shifts.empty()) return 0;
  double lo = shifts.front().*component, hi = lo;
  for (const Vec2& s : shifts) {
    lo = std::min(lo, s.*component);
    hi = std::max(hi, s.*component);
  }
  return static_cast<int>(std::ceil(hi) - std::floor(lo));
}

PatchAxis make_axis(const char* name, int extent, int patch, int count, int border, bool& clamped) {
  if (patch > extent)
    throw_usage_error(std::string("the movie is smaller than one patch along ") + name + " (" +
                      std::to_string(extent) + " px < patch size " + std::to_string(patch) + " px)");
  PatchAxis a;
  a.count = count;
  a.border = border;
  if (count == 1) {
    a.starts.push_back((extent - patch) / 2); // centred (Xmipp divides by n - 1 = 0 here)
  } else {
    if (extent - 2 * a.border < patch) { // the window cannot hold one patch: shrink the border
      a.border = (extent - patch) / 2;
      clamped = true;
    }
    const int window = extent - 2 * a.border;
    a.step = patch - ceil_div(count * patch - window, count - 1);
    for (int i = 0; i < count; ++i) a.starts.push_back(a.border + i * a.step);
  }
  for (int s : a.starts) a.centres.push_back(s + (patch - 1) / 2.0);
  return a;
}

int automatic_count(int extent, double requested) { return static_cast<int>(std::ceil(extent / requested)); }

} // namespace

PatchGrid make_patch_grid(const PatchGridRequest& r) {
  if (r.width <= 0 || r.height <= 0) throw_usage_error("patch grid: the frame size must be positive");
  const bool need_request = r.patch_size <= 0 || r.count_x <= 0 || r.count_y <= 0;
  if (need_request && !(r.requested_size > 0))
    throw_usage_error("patch grid: the requested patch size (--minLocalRes / pixel size) must be positive");
  if (r.count_x < 0 || r.count_y < 0) throw_usage_error("patch grid: patch counts must be positive");
  PatchGrid g;
  // Default working size: the smallest even size >= P_req (the caller normally passes a fast
  // FFT size chosen by the size advisor).
  g.size = r.patch_size > 0 ? r.patch_size : 2 * static_cast<int>(std::ceil(r.requested_size / 2.0));
  const int nx = r.count_x > 0 ? r.count_x : automatic_count(r.width, r.requested_size);
  const int ny = r.count_y > 0 ? r.count_y : automatic_count(r.height, r.requested_size);
  g.x = make_axis("x", r.width, g.size, nx, border_of(r.global_shifts, &Vec2::x), g.border_clamped);
  g.y = make_axis("y", r.height, g.size, ny, border_of(r.global_shifts, &Vec2::y), g.border_clamped);
  return g;
}

} // namespace frost::motion
