#include "align_movie.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <optional>
#include <utility>

#include "alignment_star.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/core/finite.hpp"
#include "frost/core/log.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/motion/control_points.hpp"
#include "frost/motion/defects.hpp"
#include "frost/motion/frame_groups.hpp"
#include "frost/motion/global_alignment.hpp"
#include "frost/motion/local_alignment.hpp"
#include "frost/motion/local_settings.hpp"
#include "frost/motion/movie_reader.hpp"
#include "frost/motion/power_spectrum.hpp"
#include "frost/motion/reference_images.hpp"
#include "frost/motion/render_movie.hpp"
#include "frost/motion/working_sizes.hpp"
#include "loaded_movie.hpp"
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

std::string fmt(const char* format, double a, double b) {
  char s[128];
  std::snprintf(s, sizeof s, format, a, b);
  return s;
}

/// Absolute frames to sum: --frameRangeSum inside the aligned frames (-1 = first/last aligned).
motion::SumRange sum_range(const std::string& movie, const AlignOptions& o, int first, int count) {
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

void log_warnings(const std::string& stage, const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings) log_warning(stage + ": " + w);
}

/// Largest value MRC mode 12 (IEEE half precision) holds.
constexpr float kHalfMax = 65504.0f;

/// Input error naming the movie and the stage when `img` holds NaN or Inf: a non-finite output is
/// never written (frames of huge values overflow single precision in the sums and transforms).
void check_finite_output(const Image<float>& img, const std::string& stage, const std::string& movie) {
  const NonFinite bad = find_non_finite(img.cview());
  if (bad.count == 0) return;
  const index_t w = img.shape().x, plane = img.shape().x * img.shape().y, first = bad.first;
  throw_input_error(movie, "the " + stage + " holds " + std::to_string(bad.count) + " NaN/Inf value(s), the first at (" +
                               std::to_string(first % w) + ", " + std::to_string((first % plane) / w) +
                               (img.shape().n > 1 ? ", frame " + std::to_string(first / plane) : std::string()) +
                               "): the movie's values overflow single precision there; nothing was written");
}

class ImageWriter {
public:
  ImageWriter(double pixel_size, bool float16, std::string movie) : movie_(std::move(movie)) {
    options_.mode = float16 ? io::MrcMode::Float16 : io::MrcMode::Float32;
    options_.pixel_size = pixel_size;
    options_.label = "frost_movie_align";
  }
  void image(const std::string& path, const Image<float>& img, const std::string& stage) {
    write(path, img, stage, io::Content::Image);
  }
  void stack(const std::string& path, const Image<float>& img, const std::string& stage) {
    write(path, img, stage, io::Content::Stack);
  }
  /// A power spectrum: with --float16 divided by its median and clamped to the half range, since
  /// its low frequencies exceed 65504 by orders of magnitude (the PSD's shape is what is read).
  void spectrum(const std::string& path, Image<float> psd, const std::string& stage) {
    check_finite_output(psd, stage, movie_);
    if (options_.mode == io::MrcMode::Float16) {
      std::vector<float> sorted(psd.begin(), psd.end());
      std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
      const float median = sorted[sorted.size() / 2];
      const float scale = median > 0 ? 1.0f / median : 1.0f;
      for (float& v : psd) v = std::min(v * scale, kHalfMax);
      log_info(path + ": --float16: the spectrum is written divided by its median " + std::to_string(median) +
               ", values above 65504 clamped");
    }
    write(path, psd, stage, io::Content::Image);
  }

private:
  void write(const std::string& path, const Image<float>& img, const std::string& stage, io::Content content) {
    check_finite_output(img, stage, movie_);
    if (options_.mode == io::MrcMode::Float16) {
      float peak = 0;
      for (float v : img) peak = std::max(peak, std::abs(v));
      if (peak > kHalfMax)
        throw_input_error(path, "--float16: the " + stage + " of " + movie_ + " reaches " + std::to_string(peak) +
                                    ", beyond half precision (65504); write it as float32 (no --float16) or use "
                                    "--normalize mean");
    }
    io::MrcWriteOptions o = options_;
    o.content = content;
    io::write_image(path, img.cview(), o);
    log_info("wrote " + path);
  }
  io::MrcWriteOptions options_;
  std::string movie_;
};

bool wants_images(const OutputPaths& out) {
  return !out.micrograph.empty() || !out.micrograph_nodw.empty() || !out.initial.empty() ||
         !out.aligned_stack.empty() || !out.halves_root.empty() || !out.psd.empty() || !out.thumbnail.empty() ||
         !out.psd_picture.empty();
}

/// The images of one movie, each checked before it is written; the movie's OutputSet drops the
/// ones written before a failing one.
void write_images(const std::string& movie, const OutputPaths& out, const AlignOptions& o, motion::FrameSums& sums,
                  double pixel_size) {
  ImageWriter w(pixel_size, o.float16, movie);
  const char* micrograph_stage = o.dose_weight ? "dose-weighted sum (--oavg)" : "aligned sum (--oavg)";
  if (!out.micrograph.empty())
    w.image(out.micrograph, o.dose_weight ? sums.dose_weighted : sums.aligned, micrograph_stage);
  if (!out.micrograph_nodw.empty()) w.image(out.micrograph_nodw, sums.aligned, "aligned sum (--oavg-nodw)");
  if (!out.initial.empty()) w.image(out.initial, sums.unaligned, "unaligned sum (--oavgInitial)");
  if (!out.halves_root.empty()) {
    w.image(out.halves_root + "_EVN.mrc", sums.even, "sum of the even frames (--ohalves)");
    w.image(out.halves_root + "_ODD.mrc", sums.odd, "sum of the odd frames (--ohalves)");
  }
  if (!out.aligned_stack.empty()) w.stack(out.aligned_stack, sums.aligned_frames, "aligned frames (--oaligned)");
  if (!out.thumbnail.empty()) {
    const Image<float>& mic = o.dose_weight ? sums.dose_weighted : sums.aligned;
    check_finite_output(mic, micrograph_stage, movie);
    write_thumbnail(out.thumbnail, mic, o.thumbnail_size);
  }
  if (!out.psd.empty() || !out.psd_picture.empty()) {
    const index_t side = std::min(sums.aligned.shape().x, sums.aligned.shape().y);
    index_t n = o.psd_size;
    if (n > side) {
      n = side - side % 2;
      log_warning("--psd-size " + std::to_string(o.psd_size) + " exceeds the micrograph; using " + std::to_string(n));
    }
    check_finite_output(sums.aligned, "aligned sum (for the power spectrum)", movie);
    Image<float> psd = motion::mean_periodogram(sums.aligned.cview(), n);
    check_finite_output(psd, "power spectrum (--opsd)", movie);
    if (!out.psd_picture.empty()) write_psd_picture(out.psd_picture, psd);
    if (!out.psd.empty()) w.spectrum(out.psd, std::move(psd), "power spectrum (--opsd)");
  }
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

/// Usage error naming the option when a size-like setting does not fit this movie; checked
/// before the frames are loaded, so a wrong setting costs no time and no memory.
void check_settings_fit(const std::string& movie, const AlignOptions& o, const motion::GlobalSettings& gs,
                        index_t width, index_t height, int frames) {
  if (gs.reference == motion::ReferenceRule::Index && (gs.reference_index < 0 || gs.reference_index >= frames))
    throw_usage_error("--reference " + std::to_string(gs.reference_index) + " is outside the " +
                      std::to_string(frames) + " aligned frames (0-based within --frameRange)");
  if (gs.mode == motion::GlobalMode::Sum && gs.sum_group > 1 &&
      motion::group_frames(frames, gs.sum_group).count() < 3)
    throw_usage_error("--group-global " + std::to_string(gs.sum_group) + " leaves fewer than 3 groups of the " +
                      std::to_string(frames) + " frames of " + movie + "; the sum mode needs at least 3");
  motion::working_sizes(width, height, gs); // correlation sizes: --maxResForCorrelation, --maxShift
  if (!o.local) return;
  const double pixel_size = gs.pixel_size;
  const motion::LocalSettings& l = o.local_settings;
  const int patch = motion::patch_working_size(l.min_local_resolution / pixel_size, o.global.fft_sizes,
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
  const motion::ControlPoints& cp = l.control_points;
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

/// Input error naming the movie and the stage when a shift or coefficient of the model is NaN or
/// Inf: the metadata would carry it to every later program.
void check_finite_model(const motion::MotionModel& model, const std::string& movie) {
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

void write_metadata(const std::string& path, const MovieFacts& facts, const motion::GlobalSettings& gs,
                    const motion::GlobalAlignment& global, const motion::LocalAlignment* local,
                    const motion::MotionModel& model) {
  if (io::file_extension(path) == "xmd") {
    double refit = 0;
    xmipp_alignment(facts, model, local, &refit).write(path);
    if (local && model.local && model.kind == motion::LocalModelKind::Residual)
      log_info("Xmipp export: total-shift B-spline refitted, RMSD " + std::to_string(refit * model.binning) + " px");
  } else {
    alignment_star(facts, gs, global, local, model).write(path);
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

MovieSummary align_movie(const std::string& movie, const AlignOptions& o, const OutputPaths& requested) {
  const auto start = Clock::now();
  OutputPaths out = requested;
  if (out.alignment.empty()) out.alignment = default_alignment_path(out);
  if (out.alignment.empty())
    throw_usage_error("no output: give -o align.star, --oavg mic.mrc or another output option");
  MovieFacts facts;

  // Read. The GPU's start-up (context, FFT planner) runs meanwhile on another thread.
  auto t = Clock::now();
  std::future<void> gpu_ready;
  if (o.gpu >= 0) gpu_ready = prepare_gpu(o.gpu);
  motion::MovieReader reader(movie, o.read);
  log_detail(movie + ": opened");
  const int first = static_cast<int>(reader.first_frame());
  const int count = static_cast<int>(reader.frame_count());
  if (count < 3)
    throw_input_error(movie, "movie alignment needs at least 3 frames; the selection has " + std::to_string(count));
  const double ts = o.pixel_size ? *o.pixel_size : reader.file_info().pixel();
  if (!(ts > 0))
    throw_usage_error("--sampling: " + movie + " does not record its pixel size; give --sampling (A/px)");
  const double bin = reader.scale_x();
  if (std::abs(reader.scale_y() - bin) > 1e-3 * bin)
    log_warning(fmt("binning differs between x (%.5f) and y (%.5f); shifts are scaled by the x factor", bin,
                    reader.scale_y()));
  const motion::SumRange range = sum_range(movie, o, first, count);
  motion::GlobalSettings gs = o.global;
  gs.pixel_size = ts * bin;
  check_settings_fit(movie, o, gs, reader.frame_shape().x, reader.frame_shape().y, count);
  // The frames where the device holds them: host RAM (--device cpu) or the GPU, which takes MRC
  // frames as their stored bytes and decodes them itself, other frames decoded on CPU threads
  // while uploading (docs/movie_align.md#the-cuda-backend); with --low-memory on the CPU, integer counts
  // corrected whenever a stage reads a frame (docs/movie_align.md#binning-and-memory).
  std::unique_ptr<LoadedMovie> frames;
  if (o.gpu >= 0)
    frames = gpu_movie(reader, o.gpu, o.gpu_memory_fraction, o.read.hot_pixel_sigma > 0, std::move(gpu_ready), o.tuning);
  else if (o.low_memory)
    frames = low_memory_movie(reader, first);
  if (!frames) frames = host_movie(reader.read_all(), first);
  const Shape frame_shape = reader.frame_shape();
  facts.seconds["Load"] = since(t);
  facts.hot_pixel_detection = o.read.hot_pixel_sigma > 0;
  if (facts.hot_pixel_detection) {
    const Image<std::uint8_t>& mask = reader.bad_pixel_mask();
    for (index_t y = 0; y < mask.shape().y; ++y)
      for (index_t x = 0; x < mask.shape().x; ++x)
        if (mask(x, y) == motion::kHotPixel) facts.hot_pixels.emplace_back(x, y);
  }
  facts.movie = movie;
  facts.gain = o.read.gain;
  facts.relion_gain = out.gain_copy.empty() ? o.read.gain : out.gain_copy;
  facts.relion_defects = out.defects_copy.empty() ? o.read.defects : out.defects_copy;
  facts.raw_x = reader.raw_width();
  facts.raw_y = reader.raw_height();
  facts.movie_frames = static_cast<int>(reader.file_info().shape.n);
  facts.pixel_size = ts;
  facts.binning = bin;
  facts.processed_x = frame_shape.x;
  facts.processed_y = frame_shape.y;
  facts.sum_first = range.first;
  facts.sum_last = range.first + range.count - 1;
  facts.dose_known = o.dose_known;
  facts.dose = o.dose;
  if (!facts.dose_known && reader.is_eer() && reader.eer_raw_frame_dose() > 0) {
    // The EER metadata gives the dose: per fraction, G raw frames (RELION's dose per frame of
    // an EER movie is per fraction).
    facts.dose_known = true;
    facts.dose.dose_per_frame = reader.eer_raw_frame_dose() * static_cast<double>(reader.eer_frames_per_fraction());
    log_info(movie + fmt(": dose %.4g e/A^2 per fraction from the EER metadata (%.4g per raw frame)",
                         facts.dose.dose_per_frame, reader.eer_raw_frame_dose()) +
             ", " + std::to_string(reader.eer_frames_per_fraction()) + " raw frames per fraction");
  }
  if (o.dose_weight && !facts.dose_known)
    throw_usage_error("--dose-weight needs --dose-per-frame: " + movie + " does not give its dose");
  facts.eer = reader.is_eer();
  facts.eer_upsampling = o.read.eer_upsampling;
  facts.eer_group = reader.eer_frames_per_fraction(); // as grouped, also when derived from a count or a dose
  facts.tiff_flip_y = o.read.tiff_flip_y;
  facts.gain_transform = o.read.gain_transform;
  log_info(movie + ": " + std::to_string(count) + " frames " + std::to_string(first) + ".." +
           std::to_string(first + count - 1) + " of " + std::to_string(facts.movie_frames) + ", processed at " +
           std::to_string(facts.processed_x) + "x" + std::to_string(facts.processed_y) + fmt(", %.4g A/px (bin %.4g)", ts * bin, bin) + " on " + frames->describe());

  // Global alignment.
  t = Clock::now();
  const motion::GlobalAlignment global = motion::align_global(frames->pairs(), gs);
  facts.seconds["Global"] = since(t);
  log_info("global alignment: " + motion::to_string(global.sizes) + "; reference frame " +
           std::to_string(first + global.reference) + ", " + std::to_string(global.outliers) + " outlier pair(s)");
  log_warnings("global alignment", global.warnings);
  if (global.reference < range.first - first || global.reference > range.first - first + range.count - 1)
    log_warning("the reference frame " + std::to_string(first + global.reference) + " is outside the summed frames");

  // Local alignment.
  motion::MotionModel model;
  model.global = global.shifts;
  model.reference = global.reference;
  std::optional<motion::LocalAlignment> local;
  if (o.local) {
    t = Clock::now();
    motion::LocalSettings ls = o.local_settings;
    ls.correlation = gs;
    if (o.control_points_auto)
      ls.control_points = motion::auto_control_points(static_cast<double>(facts.processed_x),
                                                      static_cast<double>(facts.processed_y), gs.pixel_size, count);
    ls.max_local_rmsd = o.max_local_rmsd_raw / bin; // the option is in raw px, the fit in processing px
    local = motion::align_local(frames->patches(), global, ls);
    facts.seconds["Local"] = since(t);
    model = local->model;
    log_info("local alignment: " + std::to_string(local->grid.x.count) + "x" + std::to_string(local->grid.y.count) +
             " patches of " + std::to_string(local->grid.size) + " px, control points " +
             std::to_string(ls.control_points.x) + "x" + std::to_string(ls.control_points.y) + "x" +
             std::to_string(ls.control_points.t) + (local->fit ? fmt(", fit RMSD %.4f px, %.0f rejected", local->fit->rmsd * bin, local->fit->rejected) : std::string()));
    log_warnings("local alignment", local->warnings);
  }
  model.first_frame = first;
  model.binning = bin;

  check_finite_model(model, movie);

  // Render and write: every output of the movie in one set, renamed into place together at the
  // end (a failing output leaves none of them).
  OutputSet written;
  if (wants_images(out)) {
    t = Clock::now();
    motion::SumOptions so;
    // The plain aligned sum only where it is written or feeds the PSD (a dose-weighted
    // micrograph alone does not need it).
    const bool micrograph = !out.micrograph.empty() || !out.thumbnail.empty();
    so.aligned_sum = (micrograph && !o.dose_weight) || !out.micrograph_nodw.empty() || !out.psd.empty() ||
                     !out.psd_picture.empty();
    so.unaligned_sum = !out.initial.empty();
    so.halves = !out.halves_root.empty();
    so.aligned_frames = !out.aligned_stack.empty();
    so.dose_weighted = o.dose_weight && micrograph;
    so.dose = facts.dose;
    so.pixel_size = gs.pixel_size;
    so.normalization = o.normalization;
    motion::FrameSums sums = frames->renderer().render(model, range, o.interp, so);
    facts.seconds["Render"] = since(t);
    log_detail("rendered");
    t = Clock::now();
    write_images(movie, out, o, sums, gs.pixel_size);
    facts.seconds["WriteImages"] = since(t);
  }
  if (!out.drift_plot.empty())
    write_drift_plot(out.drift_plot, model, local ? &local->grid : nullptr, static_cast<double>(facts.processed_x),
                     static_cast<double>(facts.processed_y));
  facts.seconds["Total"] = since(start);
  if (!frames->device_times().empty()) log_info(frames->device_times());
  write_metadata(out.alignment, facts, gs, global, local ? &*local : nullptr, model);
  if (!out.relion_motion.empty()) {
    if (!facts.dose_known)
      log_warning("--ostar_motion: the dose is not known (no --dose-per-frame); the STAR records RELION's default of "
                  "1 e/A^2 per frame, which Bayesian polishing uses");
    write_relion_motion(out.relion_motion, facts, model, o.max_local_rmsd_raw, local ? &local->patches : nullptr);
    if (out.write_reference_copies && !out.gain_copy.empty()) write_gain_copy(out.gain_copy, reader);
    if (out.write_reference_copies && !out.defects_copy.empty()) write_defects_copy(out.defects_copy, reader);
  }
  written.commit();

  MovieSummary s;
  s.frames = count;
  s.reference = first + global.reference;
  s.local_model = model.local.has_value();
  s.last_shift_raw = {model.global.back().x * bin, model.global.back().y * bin};
  s.alignment_path = out.alignment;
  s.seconds = since(start);
  return s;
}

} // namespace frost::movie_align
