// Frame loading: open the movie, prepare the references once, then decode frames in parallel.
#include "frost/motion/movie_reader.hpp"

#include <algorithm>

#include "frost/core/log.hpp"
#include "frost/core/threads.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/io/mrc_codec.hpp"
#include "frost/io/mrc_reader.hpp"
#include "frost/io/tiff_reader.hpp"
#include "frost/motion/reference_images.hpp"
#include "movie_reader_impl.hpp"

namespace frost::motion {

void MovieReader::Impl::open_source() {
  eer = io::file_extension(path) == "eer";
  if (eer) {
    io::EerOptions eo;
    eo.upsampling = options.eer_upsampling;
    eo.frames_per_fraction = options.eer_frames_per_fraction;
    eo.fractions = options.eer_frames_per_fraction > 0 ? 0 : options.eer_fractions;
    eo.dose_per_fraction = options.eer_frames_per_fraction > 0 ? 0.0 : options.eer_dose_per_fraction;
    source = std::make_unique<io::EerReader>(path, eo);
  } else {
    io::ReadOptions ro;
    ro.expect = io::Expect::Stack; // a single .mrc with nz > 1 is a movie whose slices are frames
    ro.tiff_flip_y = options.tiff_flip_y;
    ro.tiff_4bit = options.tiff_4bit;
    source = io::open_image_source(path, ro);
  }
  const Shape item = source->item_shape();
  if (item.z != 1) throw_input_error(path, "movie frames must be 2-D, not " + to_string(item));
  raw_w = item.x;
  raw_h = item.y;
  const io::SampleType sample = source->info().sample;
  float_samples = !eer && (sample == io::SampleType::Float32 || sample == io::SampleType::Float16);
}

void MovieReader::Impl::select_frames() {
  const index_t n = source->count();
  const index_t last = options.last_frame < 0 ? n - 1 : options.last_frame;
  first = options.first_frame < 0 ? 0 : options.first_frame;
  if (first >= n || last >= n || last < first)
    throw_input_error(path, "--frameRange " + std::to_string(options.first_frame) + " " +
                                std::to_string(options.last_frame) + " does not fit a movie of " + std::to_string(n) +
                                " frames (0.." + std::to_string(n - 1) + ")");
  count = last - first + 1;
}

void MovieReader::Impl::prepare_references() {
  const bool flip = options.tiff_flip_y;
  if (!options.gain.empty()) {
    GainOptions go;
    go.transform = options.gain_transform;
    go.invert = options.gain_invert;
    go.tiff_flip_y = flip;
    go.eer = eer;
    gain = load_gain(options.gain, go, raw_w, raw_h);
  }
  if (!options.dark.empty()) dark = load_dark(options.dark, options.gain_transform, flip, raw_w, raw_h);
  mask = Image<std::uint8_t>(Shape::image(raw_w, raw_h));
  if (!options.defects.empty()) add_defects(options.defects, options.gain_transform, flip, mask);
  // Without defects or a gain the mask is all zeros: no scan of it (the GPU path opens movies
  // in the time of a context creation).
  const index_t defects = options.defects.empty() ? 0 : count_bad(mask.cview());
  const index_t zero_gain = gain.size() ? mark_zero_gain(gain.cview(), mask) : 0;
  if (defects + zero_gain > 0)
    log_detail(path + ": " + std::to_string(defects) + " defect pixel(s), " + std::to_string(zero_gain) +
               " pixel(s) with zero gain are replaced in every frame");
  if (defects + zero_gain > 0) rebuild_filler();
  else filler.reset();
}

void MovieReader::Impl::detect_hot(View<const float> sum) {
  hot = detect_hot_pixels(sum, options.hot_pixel_sigma, mask);
  log_info(path + ": " + std::to_string(hot.count) + " hot pixel(s) above " + std::to_string(hot.threshold) +
           " (mean " + std::to_string(hot.mean) + " + " + std::to_string(options.hot_pixel_sigma) + " x sigma " +
           std::to_string(hot.sigma) + " of the unaligned sum)");
  rebuild_filler();
}

Image<float> MovieReader::Impl::read_with_hot_pixels() {
  const index_t n = raw_pixels();
  Image<float> result(Shape{binner->out_width(), binner->out_height(), 1, count});
  // The corrected raw frames are held once: in the result itself when nothing is binned.
  Image<float> raw_store;
  float* raw = result.data();
  if (!binner->identity()) {
    raw_store = Image<float>(Shape{raw_w, raw_h, 1, count});
    raw = raw_store.data();
  }
  detail::parallel_frames(count, threads, [] { return 0; }, [&](index_t t, int) { load_corrected(t, raw + t * n); });

  // Unaligned sum, frame order fixed per pixel: the same for any thread count.
  // Blocks of pixels, frames in the inner-but-one loop so that memory is read in order.
  Image<float> sum(Shape::image(raw_w, raw_h));
  constexpr index_t kBlock = 4096;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (index_t b0 = 0; b0 < n; b0 += kBlock) {
    const index_t len = std::min(kBlock, n - b0);
    double acc[kBlock] = {};
    for (index_t t = 0; t < count; ++t) {
      const float* frame = raw + t * n + b0;
      for (index_t i = 0; i < len; ++i) acc[i] += frame[i];
    }
    for (index_t i = 0; i < len; ++i) sum[b0 + i] = static_cast<float>(acc[i]);
  }
  detect_hot(sum.cview());

  detail::parallel_frames(
      count, threads, [&] { return work_buffer(); },
      [&](index_t t, HostBuffer<float>& work) {
        float* frame = raw + t * n;
        fill_bad(frame, t);
        if (binner->identity()) return;
        std::copy(frame, frame + n, work.data());
        binner->apply_in_place(work.data(), result.data() + t * binned_pixels());
      });
  return result;
}

MovieReader::MovieReader(const std::string& path, const MovieReadOptions& options) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.options = options;
  m.path = path;
  m.threads = options.threads > 0 ? options.threads : num_threads();
  m.open_source();
  m.select_frames();
  m.prepare_references();
  m.binner = std::make_unique<FourierBinner>(m.raw_w, m.raw_h, options.bin);
}

MovieReader::~MovieReader() = default;

const io::ImageInfo& MovieReader::file_info() const { return impl_->source->info(); }
bool MovieReader::is_eer() const { return impl_->eer; }
index_t MovieReader::eer_frames_per_fraction() const {
  return impl_->eer ? static_cast<const io::EerReader&>(*impl_->source).frames_per_fraction() : 0;
}
double MovieReader::eer_raw_frame_dose() const {
  return impl_->eer ? static_cast<const io::EerReader&>(*impl_->source).raw_frame_dose() : 0.0;
}
index_t MovieReader::first_frame() const { return impl_->first; }
index_t MovieReader::frame_count() const { return impl_->count; }
index_t MovieReader::raw_width() const { return impl_->raw_w; }
index_t MovieReader::raw_height() const { return impl_->raw_h; }
Shape MovieReader::frame_shape() const { return Shape::image(impl_->binner->out_width(), impl_->binner->out_height()); }
double MovieReader::scale_x() const { return double(impl_->raw_w) / double(impl_->binner->out_width()); }
double MovieReader::scale_y() const { return double(impl_->raw_h) / double(impl_->binner->out_height()); }
const Image<std::uint8_t>& MovieReader::bad_pixel_mask() const { return impl_->mask; }
const HotPixelReport& MovieReader::hot_pixels() const { return impl_->hot; }
bool MovieReader::detects_hot_pixels() const { return impl_->options.hot_pixel_sigma > 0; }

namespace {

/// The MRC mode whose samples a TIFF of this sample type stores (nullopt: none, or 32-bit ints).
std::optional<std::int32_t> tiff_sample_mode(io::SampleType sample) {
  switch (sample) {
  case io::SampleType::UInt8:
  case io::SampleType::Int8: return 0;
  case io::SampleType::Int16: return 1;
  case io::SampleType::UInt16: return 6;
  case io::SampleType::Float32: return 2;
  case io::SampleType::UInt4: return 101;
  default: return std::nullopt;
  }
}

} // namespace

std::optional<StoredFrames> MovieReader::stored_frames() const {
  const Impl& m = *impl_;
  if (!m.binner->identity() || m.filler || m.options.hot_pixel_sigma > 0) return std::nullopt;
  StoredFrames s;
  if (const auto* tiff = dynamic_cast<const io::TiffReader*>(m.source.get())) {
    const io::TiffReader::Storage st = tiff->storage();
    const std::optional<std::int32_t> mode = tiff_sample_mode(tiff->info().sample);
    if (!mode || st.rows_per_strip == 0) return std::nullopt;
    s.mode = *mode;
    s.mode0_unsigned = tiff->info().sample == io::SampleType::UInt8;
    s.row_bytes = st.row_bytes;
    s.frame_bytes = st.row_bytes * m.raw_h;
    s.decode_rows = st.rows_per_strip;
    if (s.row_bytes != static_cast<std::int64_t>(io::mrc_row_bytes(s.mode, m.raw_w))) return std::nullopt;
    return s;
  }
  const auto* mrc = dynamic_cast<const io::MrcReader*>(m.source.get());
  if (!mrc || mrc->permuted()) return std::nullopt;
  s.mode = mrc->header().mode;
  s.swap = mrc->info().big_endian;
  s.mode0_unsigned = mrc->mode0_unsigned();
  s.frame_bytes = mrc->item_bytes();
  s.row_bytes = static_cast<std::int64_t>(io::mrc_row_bytes(s.mode, m.raw_w));
  if (s.row_bytes * m.raw_h != s.frame_bytes) return std::nullopt;
  return s;
}

std::optional<EerRawFrames> MovieReader::eer_raw_frames() const {
  const Impl& m = *impl_;
  if (!m.eer || !m.binner->identity() || m.filler || m.options.hot_pixel_sigma > 0) return std::nullopt;
  const auto& eer = static_cast<const io::EerReader&>(*m.source);
  EerRawFrames r;
  r.reader = &eer;
  r.group = eer.frames_per_fraction();
  r.first_raw = m.first * r.group;
  r.sensor_width = eer.sensor_width();
  r.sensor_height = eer.sensor_height();
  r.upsampling = eer.upsampling();
  r.codes = eer.encoding().codes();
  return r;
}

void MovieReader::read_stored(std::int64_t offset, std::size_t bytes, unsigned char* dst) const {
  const Impl& m = *impl_;
  if (const auto* tiff = dynamic_cast<const io::TiffReader*>(m.source.get())) {
    const std::int64_t row = tiff->storage().row_bytes, n = static_cast<std::int64_t>(bytes);
    FROST_EXPECTS(offset >= 0 && offset % row == 0 && n % row == 0 && offset + n <= m.count * row * m.raw_h,
                  "read_stored: a TIFF movie is read in whole rows of the selected frames");
    // The rows may span frames: each frame's part is its own read.
    for (std::int64_t g = offset / row, end = (offset + n) / row; g < end;) {
      const std::int64_t t = g / m.raw_h, y = g % m.raw_h, rows = std::min(end - g, m.raw_h - y);
      tiff->read_stored_rows(m.first + t, y, rows, dst);
      dst += rows * row;
      g += rows;
    }
    return;
  }
  const auto* mrc = dynamic_cast<const io::MrcReader*>(m.source.get());
  FROST_EXPECTS(mrc != nullptr, "read_stored: the movie is neither an MRC nor a TIFF file");
  const std::int64_t end = m.count * mrc->item_bytes();
  FROST_EXPECTS(offset >= 0 && offset + static_cast<std::int64_t>(bytes) <= end,
                "read_stored: bytes outside the selected frames");
  mrc->read_bytes(mrc->data_offset() + m.first * mrc->item_bytes() + offset, bytes, dst);
}

const Image<float>& MovieReader::dark() const { return impl_->dark; }
const Image<float>& MovieReader::gain() const { return impl_->gain; }

const std::string& MovieReader::path() const { return impl_->path; }

std::string non_finite_frame_problem(index_t frame) {
  return "frame " + std::to_string(frame + 1) + " (1-based) holds NaN or Inf pixels; frost does not align such movies";
}

void MovieReader::read_frame(index_t t, float* out) const {
  if (t < 0 || t >= impl_->count)
    throw_input_error(impl_->path, "frame " + std::to_string(t) + " of the selection requested but it holds " +
                                       std::to_string(impl_->count));
  HostBuffer<float> work = impl_->work_buffer();
  impl_->load_frame(t, out, work);
}

Image<float> MovieReader::read_all() {
  Impl& m = *impl_;
  if (m.options.hot_pixel_sigma > 0) return m.read_with_hot_pixels();
  Image<float> result(Shape{m.binner->out_width(), m.binner->out_height(), 1, m.count});
  const index_t per_frame = m.binned_pixels();
  detail::parallel_frames(
      m.count, m.threads, [&] { return m.work_buffer(); },
      [&](index_t t, HostBuffer<float>& work) { m.load_frame(t, result.data() + t * per_frame, work); });
  return result;
}

} // namespace frost::motion
