#include "frost/motion/count_frames.hpp"

#include <algorithm>
#include <limits>

#include "frost/core/log.hpp"
#include "movie_reader_impl.hpp"

namespace frost::motion {

namespace {

/// How read() keeps a movie of `sample`s; false: not as counts.
bool count_kind(io::SampleType sample, int& bytes, bool& is_signed) {
  switch (sample) {
    case io::SampleType::UInt4:
    case io::SampleType::UInt8: bytes = 1, is_signed = false; return true;
    case io::SampleType::Int8: bytes = 1, is_signed = true; return true;
    case io::SampleType::UInt16: bytes = 2, is_signed = false; return true;
    case io::SampleType::Int16: bytes = 2, is_signed = true; return true;
    default: return false;
  }
}

template <class T>
T* samples(std::vector<std::uint8_t>& data) {
  return reinterpret_cast<T*>(data.data());
}
template <class T>
const T* samples(const std::vector<std::uint8_t>& data) {
  return reinterpret_cast<const T*>(data.data());
}

/// Stores raw[i] as T; false when a value is not exactly a T.
template <class T>
bool store_as(const float* raw, index_t n, T* out) {
  constexpr float lo = static_cast<float>(std::numeric_limits<T>::min());
  constexpr float hi = static_cast<float>(std::numeric_limits<T>::max());
  bool ok = true;
  for (index_t i = 0; i < n; ++i) {
    const float v = raw[i];
    ok = ok && v >= lo && v <= hi;
    const T c = ok ? static_cast<T>(v) : T(0);
    ok = ok && static_cast<float>(c) == v;
    out[i] = c;
  }
  return ok;
}

template <class T>
void load_as(const T* in, index_t n, float* raw) {
  for (index_t i = 0; i < n; ++i) raw[i] = static_cast<float>(in[i]);
}

} // namespace

CountFrames::CountFrames(const MovieReader& reader, Kind kind, index_t count, index_t pixels)
    : reader_(&reader), kind_(kind), bytes_per_sample_(kind == Kind::U8 || kind == Kind::I8 ? 1 : 2), count_(count),
      pixels_(pixels), data_(static_cast<std::size_t>(count * pixels * bytes_per_sample_)) {}

void CountFrames::store(index_t t, const float* raw) {
  const index_t at = t * pixels_;
  bool ok = false;
  switch (kind_) {
    case Kind::U8: ok = store_as(raw, pixels_, samples<std::uint8_t>(data_) + at); break;
    case Kind::I8: ok = store_as(raw, pixels_, samples<std::int8_t>(data_) + at); break;
    case Kind::U16: ok = store_as(raw, pixels_, samples<std::uint16_t>(data_) + at); break;
    case Kind::I16: ok = store_as(raw, pixels_, samples<std::int16_t>(data_) + at); break;
  }
  if (!ok)
    throw_input_error(reader_->path(), "frame " + std::to_string(reader_->first_frame() + t + 1) +
                                           " (1-based) holds values that are not counts of " +
                                           std::to_string(bits()) + " bits; run without --low-memory");
}

void CountFrames::decode(index_t at, index_t n, float* raw) const {
  switch (kind_) {
    case Kind::U8: load_as(samples<std::uint8_t>(data_) + at, n, raw); break;
    case Kind::I8: load_as(samples<std::int8_t>(data_) + at, n, raw); break;
    case Kind::U16: load_as(samples<std::uint16_t>(data_) + at, n, raw); break;
    case Kind::I16: load_as(samples<std::int16_t>(data_) + at, n, raw); break;
  }
}

void CountFrames::frame(index_t t, float* out) const {
  const MovieReader::Impl& m = *reader_->impl_;
  HostBuffer<float> work = m.work_buffer(); // empty without binning
  m.make_frame(t, out, work, [&](float* raw) { decode(t * pixels_, pixels_, raw); });
}

int CountFrames::bits_for(const MovieReader& reader) {
  int bytes = 0;
  bool is_signed = false;
  return count_kind(reader.file_info().sample, bytes, is_signed) ? 8 * bytes : 0;
}

std::unique_ptr<CountFrames> CountFrames::read(MovieReader& reader) {
  MovieReader::Impl& m = *reader.impl_;
  int bytes = 0;
  bool is_signed = false;
  if (!count_kind(m.source->info().sample, bytes, is_signed)) return nullptr;
  const Kind kind = bytes == 1 ? (is_signed ? Kind::I8 : Kind::U8) : (is_signed ? Kind::I16 : Kind::U16);
  const index_t n = m.raw_pixels();
  std::unique_ptr<CountFrames> c(new CountFrames(reader, kind, m.count, n));
  detail::parallel_frames(
      m.count, m.threads, [&] { return HostBuffer<float>(static_cast<std::size_t>(n)); },
      [&](index_t t, HostBuffer<float>& raw) {
        m.decode(t, raw.data());
        c->store(t, raw.data());
      });
  if (m.options.hot_pixel_sigma > 0) {
    // The unaligned sum of read_with_hot_pixels(): per pixel, frames in order, in double.
    Image<float> sum(Shape::image(m.raw_w, m.raw_h));
    const float* dark = m.dark_data();
    const float* gain = m.gain_data();
    constexpr index_t kBlock = 4096;
#pragma omp parallel for num_threads(m.threads) schedule(static)
    for (index_t b0 = 0; b0 < n; b0 += kBlock) {
      const index_t len = std::min(kBlock, n - b0);
      double acc[kBlock] = {};
      float raw[kBlock];
      for (index_t t = 0; t < m.count; ++t) {
        c->decode(t * n + b0, len, raw);
        for (index_t i = 0; i < len; ++i) acc[i] += corrected_pixel(raw[i], dark, gain, b0 + i);
      }
      for (index_t i = 0; i < len; ++i) sum[b0 + i] = static_cast<float>(acc[i]);
    }
    m.detect_hot(sum.cview());
  }
  return c;
}

} // namespace frost::motion
