#include "process_movie.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include "alignment_star.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/motion/defects.hpp"
#include "frost/motion/movie_pipeline.hpp"
#include "frost/motion/reference_images.hpp"
#include "image_outputs.hpp"
#include "movie_facts.hpp"
#include "pictures.hpp"
#include "relion_export.hpp"
#include "xmipp_export.hpp"

namespace frost::movie_align {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string strip_extension(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  return dot != std::string::npos && (slash == std::string::npos || dot > slash) ? path.substr(0, dot) : path;
}

/// What the exporters record about the movie: the loaded movie's facts and the options as given.
MovieFacts movie_facts(const motion::LoadedMovie& m, const AlignOptions& o, const OutputPaths& out) {
  const motion::MovieReader& reader = *m.reader;
  const motion::MovieReadOptions& read = o.align.read;
  MovieFacts facts;
  facts.hot_pixel_detection = read.hot_pixel_sigma > 0;
  if (facts.hot_pixel_detection) {
    const Image<std::uint8_t>& mask = reader.bad_pixel_mask();
    for (index_t y = 0; y < mask.shape().y; ++y)
      for (index_t x = 0; x < mask.shape().x; ++x)
        if (mask(x, y) == motion::kHotPixel) facts.hot_pixels.emplace_back(x, y);
  }
  facts.movie = m.path;
  facts.gain = read.gain;
  facts.relion_gain = out.gain_copy.empty() ? read.gain : out.gain_copy;
  facts.relion_defects = out.defects_copy.empty() ? read.defects : out.defects_copy;
  facts.raw_x = reader.raw_width();
  facts.raw_y = reader.raw_height();
  facts.movie_frames = static_cast<int>(reader.file_info().shape.n);
  facts.pixel_size = m.pixel_size;
  facts.binning = m.binning;
  facts.processed_x = reader.frame_shape().x;
  facts.processed_y = reader.frame_shape().y;
  facts.sum_first = m.sum_range.first;
  facts.sum_last = m.sum_range.first + m.sum_range.count - 1;
  facts.dose_known = m.dose_known;
  facts.dose = m.dose;
  facts.eer = reader.is_eer();
  facts.eer_upsampling = read.eer_upsampling;
  facts.eer_group = reader.eer_frames_per_fraction(); // as grouped, also when derived from a count or a dose
  facts.tiff_flip_y = read.tiff_flip_y;
  facts.gain_transform = read.gain_transform;
  return facts;
}

/// The gain as --ostar_motion names it (RELION reads it as it is): the multiplier as applied, in
/// the frames' orientation. For an EER movie RELION turns an MRC gain into mean/value, so the
/// copy holds 1/gain (0 stays 0), which RELION turns back into the gain up to a constant factor.
void write_gain_copy(const std::string& path, const motion::MovieReader& reader) {
  Image<float> gain(reader.gain().shape());
  std::copy(reader.gain().begin(), reader.gain().end(), gain.begin());
  if (reader.is_eer()) motion::invert_gain(gain);
  io::MrcWriteOptions o;
  o.label = "frost_movie_align: gain as applied";
  io::write_image(path, gain.cview(), o);
  log_info("wrote " + path + " (the gain as applied, named by the motion STAR)");
}

/// The defect image as applied (oriented like the gain): 1 = defect.
void write_defects_copy(const std::string& path, const motion::MovieReader& reader) {
  const Image<std::uint8_t>& mask = reader.bad_pixel_mask();
  Image<float> defects(mask.shape());
  for (index_t i = 0; i < mask.size(); ++i) defects[i] = mask[i] == motion::kDefectPixel ? 1.0f : 0.0f;
  io::MrcWriteOptions o;
  o.mode = io::MrcMode::Int8;
  o.label = "frost_movie_align: defects as applied";
  io::write_image(path, defects.cview(), o);
  log_info("wrote " + path + " (the defect image as applied, named by the motion STAR)");
}

void write_metadata(const std::string& path, const MovieFacts& facts, const motion::MovieAlignment& a) {
  const motion::LocalAlignment* local = a.local ? &*a.local : nullptr;
  if (io::file_extension(path) == "xmd") {
    double refit = 0;
    xmipp_alignment(facts, a.model, local, &refit).write(path);
    if (local && a.model.local && a.model.kind == motion::LocalModelKind::Residual)
      log_info("Xmipp export: total-shift B-spline refitted, RMSD " + std::to_string(refit * a.model.binning) + " px");
  } else {
    alignment_star(facts, a.global_settings, a.global, local, a.model).write(path);
  }
  log_info("wrote " + path);
}

} // namespace

std::string default_alignment_path(const OutputPaths& out) {
  for (const std::string* p : {&out.micrograph, &out.micrograph_nodw, &out.initial, &out.aligned_stack, &out.psd,
                               &out.relion_motion, &out.thumbnail, &out.psd_picture, &out.drift_plot})
    if (!p->empty()) return strip_extension(*p) + "_align.star";
  return out.halves_root.empty() ? std::string() : out.halves_root + "_align.star";
}

MovieSummary process_movie(const std::string& movie, motion::MotionBackend& backend, const AlignOptions& o,
                           const OutputPaths& requested, const MovieHooks& hooks) {
  motion::LoadAhead loader(o.align, backend, false);
  return process_movie(movie, loader, o, requested, hooks, {});
}

MovieSummary process_movie(const std::string& movie, motion::LoadAhead& loader, const AlignOptions& o,
                           const OutputPaths& requested, const MovieHooks& hooks, const std::string& next) {
  return align_for_writing(movie, loader, o, requested, hooks, next)();
}

std::function<MovieSummary()> align_for_writing(const std::string& movie, motion::LoadAhead& loader,
                                                const AlignOptions& o, const OutputPaths& requested,
                                                const MovieHooks& hooks, const std::string& next) {
  const auto start = Clock::now();
  OutputPaths out = requested;
  if (out.alignment.empty()) out.alignment = default_alignment_path(out);
  if (out.alignment.empty())
    throw_usage_error("no output: give -o align.star, --oavg mic.mrc or another output option");

  // What the write half needs, held until it runs (the frames on the device are not: they are
  // released as soon as the sums exist, so that the next movie has the memory).
  struct Aligned {
    OutputPaths out;
    motion::LoadedMovie loaded;
    MovieFacts facts;
    motion::MovieAlignment a;
    double align_seconds = 0;
  };
  auto m = std::make_shared<Aligned>();
  m->out = out;
  m->loaded = loader.take(movie);
  if (!next.empty()) loader.start(next);
  m->facts = movie_facts(m->loaded, o, out);
  motion::RenderRequest request = render_request(out, o.align.dose_weight);
  if (hooks.render) request = hooks.render(request);
  m->a = motion::align_movie(m->loaded, o.align, request);
  m->loaded.frames.reset();
  m->facts.seconds = m->a.seconds;
  m->align_seconds = since(start);

  return [m, movie, &o, inspect = hooks.inspect]() {
    const auto t_write = Clock::now();
    const OutputPaths& paths = m->out;
    const motion::MovieAlignment& a = m->a;
    MovieFacts& facts = m->facts;
    if (inspect) inspect(m->loaded, a);
    const double inspect_seconds = since(t_write);
    // Write: every output of the movie in one set, renamed into place together at the end (a
    // failing output leaves none of them).
    OutputSet written;
    if (a.sums) {
      const auto t = Clock::now();
      write_images(movie, paths, o, *a.sums, a.global_settings.pixel_size);
      facts.seconds["WriteImages"] = since(t);
    }
    if (!paths.drift_plot.empty())
      write_drift_plot(paths.drift_plot, a.model, a.local ? &a.local->grid : nullptr,
                       static_cast<double>(facts.processed_x), static_cast<double>(facts.processed_y));
    facts.seconds["Total"] = m->align_seconds + since(t_write);
    if (!a.device_times.empty()) log_info(a.device_times);
    write_metadata(paths.alignment, facts, a);
    if (!paths.relion_motion.empty()) {
      if (!facts.dose_known)
        log_warning("--ostar_motion: the dose is not known (no --dose-per-frame); the STAR records RELION's default of "
                    "1 e/A^2 per frame, which Bayesian polishing uses");
      write_relion_motion(paths.relion_motion, facts, a.model, o.align.max_local_rmsd_raw,
                          a.local ? &a.local->patches : nullptr);
      if (paths.write_reference_copies && !paths.gain_copy.empty()) write_gain_copy(paths.gain_copy, *m->loaded.reader);
      if (paths.write_reference_copies && !paths.defects_copy.empty())
        write_defects_copy(paths.defects_copy, *m->loaded.reader);
    }
    written.commit();

    MovieSummary s;
    s.frames = m->loaded.frame_count;
    s.reference = m->loaded.first_frame + a.global.reference;
    s.local_model = a.model.local.has_value();
    s.last_shift_raw = {a.model.global.back().x * m->loaded.binning, a.model.global.back().y * m->loaded.binning};
    s.alignment_path = paths.alignment;
    s.write_seconds = since(t_write);
    s.inspect_seconds = inspect_seconds;
    s.seconds = m->align_seconds + s.write_seconds;
    return s;
  };
}

} // namespace frost::movie_align
