#include "image_outputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/finite.hpp"
#include "frost/core/log.hpp"
#include "frost/io/image_io.hpp"
#include "frost/motion/power_spectrum.hpp"
#include "pictures.hpp"

namespace frost::movie_align {

namespace {

/// Largest value MRC mode 12 (IEEE half precision) holds.
constexpr float kHalfMax = 65504.0f;

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

} // namespace

motion::RenderRequest render_request(const OutputPaths& out, bool dose_weight) {
  motion::RenderRequest r;
  const bool micrograph = !out.micrograph.empty() || !out.thumbnail.empty();
  r.aligned_sum = (micrograph && !dose_weight) || !out.micrograph_nodw.empty() || !out.psd.empty() ||
                  !out.psd_picture.empty();
  r.unaligned_sum = !out.initial.empty();
  r.halves = !out.halves_root.empty();
  r.aligned_frames = !out.aligned_stack.empty();
  r.dose_weighted = dose_weight && micrograph;
  return r;
}

void check_finite_output(const Image<float>& img, const std::string& stage, const std::string& movie) {
  const NonFinite bad = find_non_finite(img.cview());
  if (bad.count == 0) return;
  const index_t w = img.shape().x, plane = img.shape().x * img.shape().y, first = bad.first;
  throw_input_error(movie, "the " + stage + " holds " + std::to_string(bad.count) + " NaN/Inf value(s), the first at (" +
                               std::to_string(first % w) + ", " + std::to_string((first % plane) / w) +
                               (img.shape().n > 1 ? ", frame " + std::to_string(first / plane) : std::string()) +
                               "): the movie's values overflow single precision there; nothing was written");
}

void write_images(const std::string& movie, const OutputPaths& out, const AlignOptions& options,
                  const motion::FrameSums& sums, double pixel_size) {
  const bool dose_weight = options.align.dose_weight;
  ImageWriter w(pixel_size, options.float16, movie);
  const char* micrograph_stage = dose_weight ? "dose-weighted sum (--oavg)" : "aligned sum (--oavg)";
  if (!out.micrograph.empty())
    w.image(out.micrograph, dose_weight ? sums.dose_weighted : sums.aligned, micrograph_stage);
  if (!out.micrograph_nodw.empty()) w.image(out.micrograph_nodw, sums.aligned, "aligned sum (--oavg-nodw)");
  if (!out.initial.empty()) w.image(out.initial, sums.unaligned, "unaligned sum (--oavgInitial)");
  if (!out.halves_root.empty()) {
    w.image(out.halves_root + "_EVN.mrc", sums.even, "sum of the even frames (--ohalves)");
    w.image(out.halves_root + "_ODD.mrc", sums.odd, "sum of the odd frames (--ohalves)");
  }
  if (!out.aligned_stack.empty()) w.stack(out.aligned_stack, sums.aligned_frames, "aligned frames (--oaligned)");
  if (!out.thumbnail.empty()) {
    const Image<float>& mic = dose_weight ? sums.dose_weighted : sums.aligned;
    check_finite_output(mic, micrograph_stage, movie);
    write_thumbnail(out.thumbnail, mic, options.thumbnail_size);
  }
  if (!out.psd.empty() || !out.psd_picture.empty()) {
    const index_t side = std::min(sums.aligned.shape().x, sums.aligned.shape().y);
    index_t n = options.psd_size;
    if (n > side) {
      n = side - side % 2;
      log_warning("--psd-size " + std::to_string(options.psd_size) + " exceeds the micrograph; using " + std::to_string(n));
    }
    check_finite_output(sums.aligned, "aligned sum (for the power spectrum)", movie);
    Image<float> psd = motion::mean_periodogram(sums.aligned.cview(), n);
    check_finite_output(psd, "power spectrum (--opsd)", movie);
    if (!out.psd_picture.empty()) write_psd_picture(out.psd_picture, psd);
    if (!out.psd.empty()) w.spectrum(out.psd, std::move(psd), "power spectrum (--opsd)");
  }
}

} // namespace frost::movie_align
