// The second half of the pipeline: global alignment, local alignment, the finite check, the
// render (docs/movie_align.md#pipeline-and-backends), on whichever backend holds the frames.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/motion/control_points.hpp"
#include "frost/motion/movie_pipeline.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string fmt(const char* format, double a, double b) {
  char s[128];
  std::snprintf(s, sizeof s, format, a, b);
  return s;
}

void log_warnings(const std::string& stage, const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings) log_warning(stage + ": " + w);
}

/// Input error naming the movie and the stage when a shift or coefficient of the model is NaN or
/// Inf: the metadata would carry it to every later program.
void check_finite_model(const MotionModel& model, const std::string& movie) {
  for (std::size_t t = 0; t < model.global.size(); ++t)
    if (!std::isfinite(model.global[t].x) || !std::isfinite(model.global[t].y))
      throw_input_error(movie, "the global alignment gives a NaN/Inf shift at frame " +
                                   std::to_string(model.first_frame + static_cast<int>(t)) +
                                   ": the movie's values overflow single precision; nothing was written");
  if (!model.local) return;
  for (const std::vector<double>* c : {&model.local->cx, &model.local->cy})
    for (double v : *c)
      if (!std::isfinite(v))
        throw_input_error(movie, "the local alignment gives a NaN/Inf B-spline coefficient: the movie's values "
                                 "overflow single precision; nothing was written");
}

} // namespace

MovieAlignment align_movie(LoadedMovie& movie, const MovieAlignSettings& o, const RenderRequest& render) {
  FROST_EXPECTS(movie.frames != nullptr, "align_movie: the movie has no frames loaded");
  MovieAlignment a;
  a.seconds["Load"] = movie.load_seconds;
  a.global_settings = o.global;
  set_processing_pixel_size(a.global_settings, movie.pixel_size * movie.binning);
  const GlobalSettings& gs = a.global_settings;

  auto t = Clock::now();
  a.global = align_global(movie.frames->pairs(), gs);
  a.seconds["Global"] = seconds_since(t);
  const int first = movie.first_frame;
  const SumRange& range = movie.sum_range;
  log_info("global alignment: " + to_string(a.global.sizes) + "; reference frame " +
           std::to_string(first + a.global.reference) + ", " + std::to_string(a.global.outliers) + " outlier pair(s)");
  log_warnings("global alignment", a.global.warnings);
  if (a.global.reference < range.first - first || a.global.reference > range.first - first + range.count - 1)
    log_warning("the reference frame " + std::to_string(first + a.global.reference) + " is outside the summed frames");
  a.model.global = a.global.shifts;
  a.model.reference = a.global.reference;

  if (o.local) {
    t = Clock::now();
    LocalSettings& ls = a.local_settings;
    ls = o.local_settings;
    ls.correlation = gs;
    if (o.control_points_auto) {
      const Shape frame = movie.reader->frame_shape();
      ls.control_points = auto_control_points(static_cast<double>(frame.x), static_cast<double>(frame.y),
                                              gs.pixel_size, movie.frame_count);
    }
    ls.max_local_rmsd = o.max_local_rmsd_raw / movie.binning; // the option is in raw px, the fit in processing px
    a.local = align_local(movie.frames->patches(), a.global, ls);
    a.seconds["Local"] = seconds_since(t);
    a.model = a.local->model;
    const LocalAlignment& l = *a.local;
    log_info("local alignment: " + std::to_string(l.grid.x.count) + "x" + std::to_string(l.grid.y.count) +
             " patches of " + std::to_string(l.grid.size) + " px, control points " +
             std::to_string(ls.control_points.x) + "x" + std::to_string(ls.control_points.y) + "x" +
             std::to_string(ls.control_points.t) +
             (l.fit ? fmt(", fit RMSD %.4f px, %.0f rejected", l.fit->rmsd * movie.binning, l.fit->rejected)
                    : std::string()));
    log_warnings("local alignment", l.warnings);
  }
  a.model.first_frame = movie.first_frame;
  a.model.binning = movie.binning;
  check_finite_model(a.model, movie.path);

  if (render.any()) {
    t = Clock::now();
    SumOptions so;
    so.aligned_sum = render.aligned_sum;
    so.unaligned_sum = render.unaligned_sum;
    so.halves = render.halves;
    so.aligned_frames = render.aligned_frames;
    so.dose_weighted = render.dose_weighted;
    so.quality = render.quality;
    so.dose = movie.dose;
    so.pixel_size = gs.pixel_size;
    so.normalization = o.normalization;
    a.sums = movie.frames->renderer().render(a.model, movie.sum_range, o.interp, so);
    a.seconds["Render"] = seconds_since(t);
    log_detail("rendered");
  }
  a.device_times = movie.frames->device_times();
  return a;
}

} // namespace frost::motion
