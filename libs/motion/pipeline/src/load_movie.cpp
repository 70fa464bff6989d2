// The first half of the pipeline: open the movie, check it and the settings, load the frames onto
// the backend (docs/movie_align.md#pipeline-and-backends).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/motion/movie_pipeline.hpp"
#include "frost/motion/working_sizes.hpp"
#include "settings_fit.hpp"

namespace frost::motion {

namespace {

using Clock = std::chrono::steady_clock;

std::string fmt(const char* format, double a, double b) {
  char s[128];
  std::snprintf(s, sizeof s, format, a, b);
  return s;
}

} // namespace

LoadedMovie load_movie(const std::string& path, const MovieAlignSettings& o, MotionBackend& backend) {
  const auto start = Clock::now();
  LoadedMovie m;
  m.path = path;
  m.reader = std::make_unique<MovieReader>(path, o.read);
  MovieReader& reader = *m.reader;
  log_detail(path + ": opened");
  m.first_frame = static_cast<int>(reader.first_frame());
  m.frame_count = static_cast<int>(reader.frame_count());
  if (m.frame_count < 3)
    throw_input_error(path, "movie alignment needs at least 3 frames; the selection has " + std::to_string(m.frame_count));
  m.pixel_size = o.pixel_size ? *o.pixel_size : reader.file_info().pixel();
  if (!(m.pixel_size > 0))
    throw_usage_error("--sampling: " + path + " does not record its pixel size; give --sampling (A/px)");
  m.binning = reader.scale_x();
  if (std::abs(reader.scale_y() - m.binning) > 1e-3 * m.binning)
    log_warning(fmt("binning differs between x (%.5f) and y (%.5f); shifts are scaled by the x factor", m.binning,
                    reader.scale_y()));
  m.sum_range = detail::sum_range(path, o, m.first_frame, m.frame_count);
  GlobalSettings gs = o.global;
  set_processing_pixel_size(gs, m.pixel_size * m.binning);
  detail::check_settings_fit(path, o, gs, reader.frame_shape().x, reader.frame_shape().y, m.frame_count);
  m.frames = backend.load(reader);
  m.load_seconds = std::chrono::duration<double>(Clock::now() - start).count();

  m.dose_known = o.dose_known;
  m.dose = o.dose;
  if (!m.dose_known && reader.is_eer() && reader.eer_raw_frame_dose() > 0) {
    // The EER metadata gives the dose: per fraction, G raw frames (RELION's dose per frame of
    // an EER movie is per fraction).
    m.dose_known = true;
    m.dose.dose_per_frame = reader.eer_raw_frame_dose() * static_cast<double>(reader.eer_frames_per_fraction());
    log_info(path + fmt(": dose %.4g e/A^2 per fraction from the EER metadata (%.4g per raw frame)",
                        m.dose.dose_per_frame, reader.eer_raw_frame_dose()) +
             ", " + std::to_string(reader.eer_frames_per_fraction()) + " raw frames per fraction");
  }
  if (o.dose_weight && !m.dose_known)
    throw_usage_error("--dose-weight needs --dose-per-frame: " + path + " does not give its dose");
  const Shape frame = reader.frame_shape();
  log_info(path + ": " + std::to_string(m.frame_count) + " frames " + std::to_string(m.first_frame) + ".." +
           std::to_string(m.first_frame + m.frame_count - 1) + " of " + std::to_string(reader.file_info().shape.n) +
           ", processed at " + std::to_string(frame.x) + "x" + std::to_string(frame.y) +
           fmt(", %.4g A/px (bin %.4g)", m.pixel_size * m.binning, m.binning) + " on " + m.frames->describe());
  return m;
}

} // namespace frost::motion
