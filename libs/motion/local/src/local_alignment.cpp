#include "frost/motion/local_alignment.hpp"

#include <algorithm>
#include <exception>
#include <sstream>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/motion/local_measurements.hpp"

namespace frost::motion {

namespace {

PatchGrid grid_for(index_t width, index_t height, const GlobalAlignment& global, const LocalSettings& s) {
  if (!(s.min_local_resolution > 0)) throw_usage_error("--minLocalRes must be positive");
  PatchGridRequest r;
  r.width = static_cast<int>(width);
  r.height = static_cast<int>(height);
  r.requested_size = s.min_local_resolution / s.correlation.pixel_size;
  r.patch_size = patch_working_size(r.requested_size, s.correlation.fft_sizes,
                                    static_cast<int>(std::min(width, height)));
  r.count_x = s.patches_x;
  r.count_y = s.patches_y;
  r.global_shifts = global.shifts;
  return make_patch_grid(r);
}

/// Measures every patch on `frames` (host or device), then solves each patch on the host
/// (patches in parallel; each result stored at its index, so the whole is deterministic).
std::vector<PatchTrack> align_patches(PatchMeasurer& frames, const PatchGrid& grid, const PatchOffsets& offsets,
                                      const GlobalSettings& settings, bool rounding_correction) {
  const int count = grid.count();
  const int n = frames.frame_count();
  std::vector<PatchCorner> corners(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
    corners[static_cast<std::size_t>(i)] = {grid.x.starts[static_cast<std::size_t>(i % grid.x.count)],
                                            grid.y.starts[static_cast<std::size_t>(i / grid.x.count)]};
  const WorkingSizes sizes = patch_working_sizes(grid.size, settings);
  const Image<float> filter = lowpass_filter(sizes);
  const std::vector<std::vector<PairMeasurement>> measured =
      frames.measure_patches(offsets, corners, grid.size, sizes, filter.cview(),
                             frame_pairs(n, settings.max_pair_distance), correlation_options(sizes, settings));

  std::vector<PatchTrack> tracks(static_cast<std::size_t>(count));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(count));
#pragma omp parallel for num_threads(std::max(1, std::min(num_threads(), count))) schedule(dynamic, 1)
  for (int i = 0; i < count; ++i) {
    try {
      PatchTrack t = align_patch(measured[static_cast<std::size_t>(i)], n, sizes, offsets, settings, rounding_correction);
      t.patch = i;
      t.centre = grid.centre(i);
      tracks[static_cast<std::size_t>(i)] = std::move(t);
    } catch (...) {
      errors[static_cast<std::size_t>(i)] = std::current_exception();
    }
  }
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return tracks;
}

void fit_or_fall_back(const LocalSettings& s, int width, int height, LocalAlignment& out) {
  const ControlPoints& cp = s.control_points;
  const BSplineField grid =
      BSplineField::make(cp.x, cp.y, cp.t, width, height, static_cast<double>(out.model.frames()));
  BSplineFitOptions fo;
  fo.lambda = s.bspline_lambda;
  fo.outlier_sigma = s.correlation.outlier_sigma;
  fo.outlier_rounds = s.correlation.outlier_rounds;
  try {
    out.fit = fit_bspline_field(out.measurements, grid, fo);
  } catch (const Error& e) {
    if (e.code() != ExitCode::Runtime) throw;
    out.fell_back = true;
    out.fallback_reason = std::string("the B-spline fit failed (") + e.what() + ")";
    return;
  }
  out.warnings.insert(out.warnings.end(), out.fit->warnings.begin(), out.fit->warnings.end());
  if (!(out.fit->rmsd <= s.max_local_rmsd)) {
    std::ostringstream m;
    m << "the B-spline fit RMSD " << out.fit->rmsd << " px exceeds --max-local-rmsd " << s.max_local_rmsd << " px";
    out.fell_back = true;
    out.fallback_reason = m.str();
    return;
  }
  out.model.local = out.fit->field;
}

} // namespace

LocalAlignment align_local(PatchMeasurer& frames, const GlobalAlignment& global, const LocalSettings& settings) {
  const int n = frames.frame_count();
  if (n < 3) throw_usage_error("local alignment needs at least 3 frames, got " + std::to_string(n));
  if (global.shifts.size() != static_cast<std::size_t>(n))
    throw_usage_error("local alignment: " + std::to_string(n) + " frames but " +
                      std::to_string(global.shifts.size()) + " global shifts");
  const index_t width = frames.frame_size().x, height = frames.frame_size().y;

  LocalAlignment out;
  out.model.global = global.shifts;
  out.model.reference = global.reference;
  out.model.kind = settings.model;
  out.grid = grid_for(width, height, global, settings);
  if (out.grid.border_clamped)
    out.warnings.push_back("the global drift is too large for a full patch border; patches read the frame edge");
  const GlobalSettings patch_settings = patch_alignment_settings(settings, global.reference);
  out.patch_sizes = patch_working_sizes(out.grid.size, patch_settings);
  out.offsets = patch_offsets(global.shifts, settings.patches_average);

  out.patches = align_patches(frames, out.grid, out.offsets, patch_settings, settings.rounding_correction);
  int patches_with_warnings = 0;
  std::string first_warning;
  for (const PatchTrack& t : out.patches) {
    out.patch_outliers += t.outliers;
    out.patch_edge_pairs += t.edge_pairs;
    if (t.warnings.empty()) continue;
    if (patches_with_warnings++ == 0) first_warning = t.warnings.front();
  }
  if (patches_with_warnings > 0) // one line for all patches, not one per patch
    out.warnings.push_back(std::to_string(patches_with_warnings) + " of " + std::to_string(out.grid.count()) +
                           " patches reported, e.g.: " + first_warning);

  out.measurements = local_fit_targets(out.patches, global.shifts, settings.model);
  fit_or_fall_back(settings, static_cast<int>(width), static_cast<int>(height), out);
  if (out.fell_back) out.warnings.push_back("local model discarded, using the global model: " + out.fallback_reason);
  return out;
}

LocalAlignment align_local(const std::vector<View<const float>>& frames, const GlobalAlignment& global,
                           const LocalSettings& settings) {
  for (const View<const float>& f : frames)
    if (f.shape.x != frames[0].shape.x || f.shape.y != frames[0].shape.y)
      throw_usage_error("local alignment: the frames differ in size");
  HostPatchMeasurer host(frames);
  return align_local(host, global, settings);
}

LocalAlignment align_local(View<const float> stack, const GlobalAlignment& global, const LocalSettings& settings) {
  return align_local(stack_frames(stack, "local alignment"), global, settings);
}

} // namespace frost::motion
