#pragma once
// MovieReader's state, shared by movie_reader.cpp and count_frames.cpp (not installed).
#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>
#include <mutex>
#include <string>

#include "frost/core/error.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/io/image_source.hpp"
#include "frost/motion/bad_pixels.hpp"
#include "frost/motion/defects.hpp"
#include "frost/motion/fourier_binning.hpp"
#include "frost/motion/frame_correction.hpp"
#include "frost/motion/movie_reader.hpp"

namespace frost::motion {

namespace detail {

/// Bad pixels are replaced from a wider window on EER grids, whose defects come in blocks.
constexpr int kBadPixelRadius = 2;
constexpr int kBadPixelRadiusEer = 4;

/// Runs body(t) for t in [0, n) on `threads` OpenMP threads; the first exception is rethrown.
/// `body` also gets the thread's work buffer, made by make_buffer() once per thread.
template <class MakeBuffer, class Body>
void parallel_frames(index_t n, int threads, MakeBuffer make_buffer, Body body) {
  std::exception_ptr failure;
  std::mutex mutex;
#pragma omp parallel num_threads(threads)
  {
    auto buffer = make_buffer();
#pragma omp for schedule(dynamic, 1)
    for (index_t t = 0; t < n; ++t) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (failure) continue;
      }
      try {
        body(t, buffer);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
}

} // namespace detail

struct MovieReader::Impl {
  MovieReadOptions options;
  std::string path;
  std::unique_ptr<io::ImageSource> source;
  bool eer = false;
  index_t first = 0, count = 0;
  index_t raw_w = 0, raw_h = 0;
  Image<float> gain, dark;
  Image<std::uint8_t> mask;
  std::unique_ptr<BadPixelFiller> filler;
  std::unique_ptr<FourierBinner> binner;
  HotPixelReport hot;
  int threads = 1;
  bool float_samples = false; ///< float32/float16 frames, which can hold NaN or Inf

  /// A NaN or Inf pixel would spread through every FFT of the alignment and end in the
  /// micrograph: an input error, naming the frame (1-based, as in the file).
  void reject_non_finite(const float* raw, index_t t) const {
    const index_t n = raw_pixels();
    for (index_t i = 0; i < n; ++i)
      if (!std::isfinite(raw[i]))
        throw_input_error(path, non_finite_frame_problem(first + t) + " (the first at x " + std::to_string(i % raw_w) +
                                    ", y " + std::to_string(i / raw_w) + ")");
  }

  index_t raw_pixels() const { return raw_w * raw_h; }
  index_t binned_pixels() const { return binner->out_width() * binner->out_height(); }
  const float* dark_data() const { return dark.size() ? dark.data() : nullptr; }
  const float* gain_data() const { return gain.size() ? gain.data() : nullptr; }
  /// Decode frame t of the selection into `raw` (raw_pixels() floats).
  void decode(index_t t, float* raw) const {
    source->read(first + t, raw);
    if (float_samples) reject_non_finite(raw, t);
  }
  /// Decode frame t into `raw` and apply dark and gain.
  void load_corrected(index_t t, float* raw) const {
    decode(t, raw);
    correct_frame(raw, raw_pixels(), dark_data(), gain_data());
  }
  void fill_bad(float* raw, index_t t) const {
    if (filler) filler->fill(raw, first + t);
  }
  /// Raw-size work buffer for binning (scratch_floats() floats, 64-byte aligned).
  HostBuffer<float> work_buffer() const {
    return binner->identity() ? HostBuffer<float>() : HostBuffer<float>(static_cast<std::size_t>(binner->scratch_floats()));
  }
  /// Frame t corrected, filled and binned into `out`; decode_raw(raw) writes the decoded raw
  /// frame (into `out` itself without binning, else into `work`, from work_buffer()).
  template <class Decode>
  void make_frame(index_t t, float* out, HostBuffer<float>& work, Decode decode_raw) const {
    float* raw = binner->identity() ? out : work.data();
    decode_raw(raw);
    correct_frame(raw, raw_pixels(), dark_data(), gain_data());
    fill_bad(raw, t);
    if (!binner->identity()) binner->apply_in_place(work.data(), out);
  }
  void load_frame(index_t t, float* out, HostBuffer<float>& work) const {
    make_frame(t, out, work, [&](float* raw) { decode(t, raw); });
  }
  void rebuild_filler() {
    filler.reset();
    if (count_bad(mask.cview()) > 0)
      filler = std::make_unique<BadPixelFiller>(mask.cview(), eer ? detail::kBadPixelRadiusEer : detail::kBadPixelRadius,
                                                options.seed);
  }
  /// Hot-pixel detection on the unaligned sum of the corrected raw frames; logs, then rebuilds
  /// the bad-pixel filler.
  void detect_hot(View<const float> sum);
  void open_source();
  void select_frames();
  void prepare_references();
  Image<float> read_with_hot_pixels();
};

} // namespace frost::motion
