#include "settings_fit.hpp"

#include <algorithm>
#include <cstdio>

#include "frost/core/error.hpp"
#include "frost/motion/control_points.hpp"
#include "frost/motion/frame_groups.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion::detail {

namespace {

std::string fmt(const char* format, double a, double b) {
  char s[128];
  std::snprintf(s, sizeof s, format, a, b);
  return s;
}

} // namespace

SumRange sum_range(const std::string& movie, const MovieAlignSettings& o, int first, int count) {
  const int last = first + count - 1;
  int sf = first, sl = last;
  if (o.sum_range_given) {
    sf = o.sum_first < 0 ? first : o.sum_first;
    sl = o.sum_last < 0 ? last : o.sum_last;
  }
  if (sf < first || sl > last || sf > sl)
    throw_usage_error("--frameRangeSum " + std::to_string(o.sum_first) + " " + std::to_string(o.sum_last) +
                      " must lie inside the aligned frames " + std::to_string(first) + ".." + std::to_string(last) +
                      " of " + movie);
  return {sf, sl - sf + 1};
}

void check_settings_fit(const std::string& movie, const MovieAlignSettings& o, const GlobalSettings& gs,
                        index_t width, index_t height, int frames) {
  if (gs.reference == ReferenceRule::Index && (gs.reference_index < 0 || gs.reference_index >= frames))
    throw_usage_error("--reference " + std::to_string(gs.reference_index) + " is outside the " +
                      std::to_string(frames) + " aligned frames (0-based within --frameRange)");
  if (gs.mode == GlobalMode::Sum && gs.sum_group > 1 && group_frames(frames, gs.sum_group).count() < 3)
    throw_usage_error("--group-global " + std::to_string(gs.sum_group) + " leaves fewer than 3 groups of the " +
                      std::to_string(frames) + " frames of " + movie + "; the sum mode needs at least 3");
  working_sizes(width, height, gs); // correlation sizes: --maxResForCorrelation, --maxShift
  if (!o.local) return;
  const double pixel_size = gs.pixel_size;
  const LocalSettings& l = o.local_settings;
  const int patch = patch_working_size(l.min_local_resolution / pixel_size, o.global.fft_sizes,
                                       static_cast<int>(std::min(width, height)));
  if (patch > std::min(width, height))
    throw_usage_error("--minLocalRes " + fmt("%g A gives patches of %g px", l.min_local_resolution, patch) +
                      ", larger than " + movie + " (" + std::to_string(width) + "x" + std::to_string(height) +
                      " px as processed): lower --minLocalRes or use --skipLocalAlignment");
  const auto max_patches = [&](index_t extent) {
    // Patches may overlap by 3/4 at most (4 per patch width), and no two may start at one place.
    const index_t per_width = 4 * ((extent + patch - 1) / patch);
    return std::max<index_t>(1, std::min<index_t>(per_width, extent - patch + 1));
  };
  const index_t mx = max_patches(width), my = max_patches(height);
  if (l.patches_x > mx || l.patches_y > my)
    throw_usage_error("--patches " + std::to_string(l.patches_x) + " " + std::to_string(l.patches_y) + ": " + movie +
                      " (" + std::to_string(width) + "x" + std::to_string(height) + " px as processed) holds at most " +
                      std::to_string(mx) + "x" + std::to_string(my) + " patches of " + std::to_string(patch) +
                      " px (--minLocalRes); patches overlap by at most 3/4 and never coincide");
  if (o.control_points_auto) return;
  // At most two spline intervals per patch width in space (at least 4), and no more temporal
  // intervals than frames (at least 3): finer grids have nothing to fit and only cost memory.
  const ControlPoints& cp = l.control_points;
  const auto max_spatial = [&](index_t extent) {
    return static_cast<int>(std::max<index_t>(4, 2 * ((extent + patch - 1) / patch)) + 2);
  };
  const int lx = max_spatial(width), ly = max_spatial(height), lt = std::max(3, frames) + 2;
  if (cp.x > lx || cp.y > ly || cp.t > lt)
    throw_usage_error("--controlPoints " + std::to_string(cp.x) + " " + std::to_string(cp.y) + " " +
                      std::to_string(cp.t) + ": " + movie + " (" + std::to_string(width) + "x" +
                      std::to_string(height) + " px as processed, " + std::to_string(frames) + " frames, patches of " +
                      std::to_string(patch) + " px) supports at most " + std::to_string(lx) + " " + std::to_string(ly) +
                      " " + std::to_string(lt));
}

} // namespace frost::motion::detail
