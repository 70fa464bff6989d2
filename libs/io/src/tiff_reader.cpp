// libtiff-backed movie reader. libtiff handles are not thread-safe, so concurrent reads each
// take a handle from a small pool (opening another one when all are busy): frames then decode
// in parallel, which matters because LZW/Deflate decompression is CPU bound.
#include "frost/io/tiff_reader.hpp"

#include <tiffio.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "staging_buffer.hpp"

namespace frost::io {

namespace {

/// One open libtiff handle and the last error libtiff reported on it.
struct Handle {
  TIFF* tif = nullptr;
  std::string error;
  std::vector<unsigned char> strip; ///< one decoded strip, for rows that go elsewhere than in file order
  Handle() = default;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (tif) TIFFClose(tif);
  }
};

#if TIFFLIB_VERSION >= 20221213
int on_error(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
  char text[512];
  std::vsnprintf(text, sizeof text, fmt, ap);
  static_cast<Handle*>(user)->error = std::string(module ? module : "libtiff") + ": " + text;
  return 1; // handled: keep libtiff from printing it
}
int on_warning(TIFF*, void*, const char*, const char*, va_list) {
  return 1; // unknown private tags (SerialEM, EPU) are common and harmless
}
#endif

std::unique_ptr<Handle> open_handle(const std::string& path) {
  auto h = std::make_unique<Handle>();
#if TIFFLIB_VERSION >= 20221213
  TIFFOpenOptions* opts = TIFFOpenOptionsAlloc();
  TIFFOpenOptionsSetErrorHandlerExtR(opts, on_error, h.get());
  TIFFOpenOptionsSetWarningHandlerExtR(opts, on_warning, h.get());
  h->tif = TIFFOpenExt(path.c_str(), "r", opts);
  TIFFOpenOptionsFree(opts);
#else
  h->tif = TIFFOpen(path.c_str(), "r");
#endif
  if (!h->tif)
    throw_input_error(path, "cannot open as TIFF" + (h->error.empty() ? std::string() : " (" + h->error + ")"));
  return h;
}

/// The layout facts that every directory must share.
struct Layout {
  std::uint32_t width = 0, height = 0;
  std::uint16_t bits = 0, format = 0, samples = 0;
  bool operator==(const Layout& o) const {
    return width == o.width && height == o.height && bits == o.bits && format == o.format && samples == o.samples;
  }
};

std::string describe(const Layout& l) {
  const char* kind = l.format == SAMPLEFORMAT_IEEEFP ? "float" : l.format == SAMPLEFORMAT_INT ? "int" : "uint";
  return std::to_string(l.width) + "x" + std::to_string(l.height) + " " + kind + std::to_string(l.bits) +
         (l.samples == 1 ? "" : " x" + std::to_string(l.samples) + " samples");
}

Layout read_layout(TIFF* tif) {
  Layout l;
  TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &l.width);
  TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &l.height);
  TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &l.bits);
  TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &l.samples);
  // No SampleFormat means unsigned, except 32-bit which EMAN2 writes as float.
  if (!TIFFGetField(tif, TIFFTAG_SAMPLEFORMAT, &l.format)) l.format = l.bits == 32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT;
  return l;
}

SampleType sample_type_of(const Layout& l, const std::string& path) {
  if (l.samples != 1) throw_input_error(path, "TIFF with " + std::to_string(l.samples) + " samples per pixel (colour) is not supported");
  if (l.format == SAMPLEFORMAT_IEEEFP && l.bits == 32) return SampleType::Float32;
  if (l.format == SAMPLEFORMAT_INT || l.format == SAMPLEFORMAT_UINT) {
    const bool s = l.format == SAMPLEFORMAT_INT;
    if (l.bits == 8) return s ? SampleType::Int8 : SampleType::UInt8;
    if (l.bits == 16) return s ? SampleType::Int16 : SampleType::UInt16;
    if (l.bits == 32) return s ? SampleType::Int32 : SampleType::UInt32;
  }
  throw_input_error(path, "unsupported TIFF sample type " + describe(l) +
                              " (frost reads 8/16/32-bit integers and 32-bit float)");
}

template <class T>
void convert_row(const unsigned char* src, std::uint32_t n, float* out) {
  for (std::uint32_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, src + i * sizeof(T), sizeof(T)); // libtiff returns host byte order
    out[i] = static_cast<float>(v);
  }
}

} // namespace

struct TiffReader::Impl {
  ImageInfo info;
  Layout layout;
  bool flip = true;
  bool four_bit = false;
  std::size_t row_bytes = 0; ///< stored bytes of one row
  mutable std::mutex mutex;
  mutable std::vector<std::unique_ptr<Handle>> idle;

  std::unique_ptr<Handle> acquire() const {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!idle.empty()) {
        auto h = std::move(idle.back());
        idle.pop_back();
        return h;
      }
    }
    return open_handle(info.path);
  }
  void release(std::unique_ptr<Handle> h) const {
    std::lock_guard<std::mutex> lock(mutex);
    idle.push_back(std::move(h));
  }
  void select_directory(Handle& h, index_t index) const;
  std::uint32_t rows_per_strip(TIFF* tif) const;
  void read_raw(Handle& h, index_t index, unsigned char* raw) const;
  void read_rows(Handle& h, index_t index, index_t y0, index_t rows, unsigned char* dst) const;
  void convert(const unsigned char* raw, float* out) const;
  bool tiled = false;
  std::uint32_t strip_rows = 0; ///< rows per strip of directory 0

  /// A handle taken from the pool for one read, given back however the read ends.
  class Lease {
  public:
    explicit Lease(const Impl& m) : m_(m), h_(m.acquire()) {}
    ~Lease() { m_.release(std::move(h_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Handle& operator*() const { return *h_; }

  private:
    const Impl& m_;
    std::unique_ptr<Handle> h_;
  };
};


bool tiff_supported() { return true; }

TiffReader::TiffReader(const std::string& path, const ReadOptions& options) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.info.path = path;
  m.info.format = FileFormat::Tiff;
  m.flip = options.tiff_flip_y;
  auto h = open_handle(path);
  TIFF* tif = h->tif;

  m.layout = read_layout(tif);
  m.info.sample = sample_type_of(m.layout, path);
  index_t frames = 0;
  do {
    const Layout l = read_layout(tif);
    if (!(l == m.layout))
      throw_input_error(path, "TIFF directory " + std::to_string(frames) + " is " + describe(l) +
                                  " but directory 0 is " + describe(m.layout) + "; all frames must agree");
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    if (compression >= 65000 && compression <= 65002)
      throw_input_error(path, "EER-compressed TIFF (compression " + std::to_string(compression) + "): read it as an EER movie");
    if (!TIFFIsCODECConfigured(compression))
      throw_input_error(path, "TIFF compression " + std::to_string(compression) + " is not supported by this libtiff");
    ++frames;
  } while (TIFFReadDirectory(tif));
  if (!h->error.empty()) throw_input_error(path, "broken TIFF directory chain (" + h->error + ")");

  index_t width = m.layout.width;
  const bool camera = is_imod_4bit_camera_size(m.layout.width, m.layout.height);
  m.four_bit = m.layout.bits == 8 && m.layout.format == SAMPLEFORMAT_UINT &&
               (options.tiff_4bit == Switch::Yes || (options.tiff_4bit == Switch::Auto && camera));
  if (options.tiff_4bit == Switch::Yes && !m.four_bit)
    throw_input_error(path, "4-bit unpacking was requested but the TIFF holds " + describe(m.layout));
  if (m.four_bit) {
    width *= 2;
    m.info.sample = SampleType::UInt4;
  }

  // Pixel size from the first directory: inch and centimetre units only. Packed
  // 4-bit files pack along x only, so their y resolution is the one that describes true pixels.
  TIFFSetDirectory(tif, 0);
  float res = 0;
  std::uint16_t unit = RESUNIT_NONE;
  if (TIFFGetField(tif, m.four_bit ? TIFFTAG_YRESOLUTION : TIFFTAG_XRESOLUTION, &res) && res > 0) {
    TIFFGetFieldDefaulted(tif, TIFFTAG_RESOLUTIONUNIT, &unit);
    const double a = unit == RESUNIT_INCH ? 2.54e8 / res : unit == RESUNIT_CENTIMETER ? 1e8 / res : 0.0;
    m.info.pixel_size = {a, a, 0};
  }
  m.row_bytes = static_cast<std::size_t>(m.layout.width) * (m.layout.bits / 8);
  m.tiled = TIFFIsTiled(tif) != 0;
  m.strip_rows = m.tiled ? 0 : m.rows_per_strip(tif);
  m.info.content = frames == 1 ? Content::Image : Content::Stack;
  m.info.shape = Shape{width, static_cast<index_t>(m.layout.height), 1, frames};
  m.release(std::move(h));
}

TiffReader::~TiffReader() = default;

const ImageInfo& TiffReader::info() const { return impl_->info; }
bool TiffReader::four_bit_packed() const { return impl_->four_bit; }
bool TiffReader::flips_rows() const { return impl_->flip; }

void TiffReader::Impl::select_directory(Handle& h, index_t index) const {
  TIFF* tif = h.tif;
  h.error.clear();
  // Frames are usually read in order: stepping to the next directory avoids walking the chain.
  const auto current = static_cast<index_t>(TIFFCurrentDirectory(tif));
  const bool ok = current + 1 == index ? TIFFReadDirectory(tif) != 0
                  : current == index   ? true
                                       : TIFFSetDirectory(tif, static_cast<tdir_t>(index)) != 0;
  if (!ok)
    throw_input_error(info.path, "cannot read TIFF directory " + std::to_string(index) + " " + h.error);
}

std::uint32_t TiffReader::Impl::rows_per_strip(TIFF* tif) const {
  std::uint32_t rows = layout.height;
  TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows);
  return std::min(std::max<std::uint32_t>(rows, 1), layout.height);
}

void TiffReader::Impl::read_raw(Handle& h, index_t index, unsigned char* raw) const {
  select_directory(h, index);
  TIFF* tif = h.tif;
  const std::string& path = info.path;
  const std::uint32_t height = layout.height;
  if (TIFFIsTiled(tif)) {
    std::uint32_t tw = 0, th = 0;
    TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tw);
    TIFFGetField(tif, TIFFTAG_TILELENGTH, &th);
    const std::size_t bpp = layout.bits / 8;
    std::vector<unsigned char> tile(static_cast<std::size_t>(TIFFTileSize(tif)));
    for (std::uint32_t y0 = 0; y0 < height; y0 += th) {
      for (std::uint32_t x0 = 0; x0 < layout.width; x0 += tw) {
        if (TIFFReadEncodedTile(tif, TIFFComputeTile(tif, x0, y0, 0, 0), tile.data(), -1) < 0)
          throw_input_error(path, "cannot decode a tile of frame " + std::to_string(index) + " (" + h.error + ")");
        const std::uint32_t w = std::min(tw, layout.width - x0), rows = std::min(th, height - y0);
        for (std::uint32_t r = 0; r < rows; ++r)
          std::memcpy(raw + (y0 + r) * row_bytes + x0 * bpp, tile.data() + r * tw * bpp, w * bpp);
      }
    }
    return;
  }
  const std::uint32_t rows_per_strip = this->rows_per_strip(tif);
  const std::uint32_t strips = TIFFNumberOfStrips(tif);
  for (std::uint32_t s = 0; s < strips; ++s) {
    const std::uint64_t y0 = std::uint64_t(s) * rows_per_strip;
    if (y0 >= height) break;
    const std::uint64_t rows = std::min<std::uint64_t>(rows_per_strip, height - y0);
    const auto want = static_cast<tmsize_t>(rows * row_bytes);
    if (TIFFReadEncodedStrip(tif, s, raw + y0 * row_bytes, want) < want)
      throw_input_error(path, "cannot decode strip " + std::to_string(s) + " of frame " + std::to_string(index) +
                                  (h.error.empty() ? std::string(" (short strip)") : " (" + h.error + ")"));
  }
}

void TiffReader::Impl::convert(const unsigned char* raw, float* out) const {
  const std::uint32_t height = layout.height, stored = layout.width;
  const index_t width = info.shape.x;
  for (std::uint32_t y = 0; y < height; ++y) {
    // TIFF row 0 is the top of the image, MRC row 0 the bottom (docs/formats.md#arrays-rows-and-indices).
    const unsigned char* src = raw + std::size_t(flip ? height - 1 - y : y) * row_bytes;
    float* dst = out + index_t(y) * width;
    if (four_bit) {
      for (std::uint32_t i = 0; i < stored; ++i) { // low nibble is the left pixel, as MRC mode 101
        dst[2 * i] = static_cast<float>(src[i] & 0x0f);
        dst[2 * i + 1] = static_cast<float>(src[i] >> 4);
      }
      continue;
    }
    switch (info.sample) {
    case SampleType::UInt8: convert_row<std::uint8_t>(src, stored, dst); break;
    case SampleType::Int8: convert_row<std::int8_t>(src, stored, dst); break;
    case SampleType::UInt16: convert_row<std::uint16_t>(src, stored, dst); break;
    case SampleType::Int16: convert_row<std::int16_t>(src, stored, dst); break;
    case SampleType::UInt32: convert_row<std::uint32_t>(src, stored, dst); break;
    case SampleType::Int32: convert_row<std::int32_t>(src, stored, dst); break;
    case SampleType::Float32: convert_row<float>(src, stored, dst); break;
    default: FROST_THROW(ExitCode::Runtime, "TiffReader: unexpected sample type");
    }
  }
}

void TiffReader::read(index_t index, float* out) const {
  check_index(index);
  std::vector<unsigned char> fallback;
  unsigned char* raw = detail::staging_buffer(impl_->row_bytes * impl_->layout.height, fallback);
  {
    const Impl::Lease h(*impl_);
    impl_->read_raw(*h, index, raw);
  }
  impl_->convert(raw, out);
}

TiffReader::Storage TiffReader::storage() const {
  return {static_cast<index_t>(impl_->row_bytes), static_cast<index_t>(impl_->strip_rows)};
}

void TiffReader::read_stored_rows(index_t index, index_t y0, index_t rows, unsigned char* dst) const {
  check_index(index);
  const index_t height = impl_->layout.height;
  FROST_EXPECTS(y0 >= 0 && rows >= 0 && y0 + rows <= height, "TiffReader::read_stored_rows: rows outside the frame");
  if (impl_->tiled) FROST_THROW(ExitCode::Runtime, "TiffReader::read_stored_rows: " + impl_->info.path + " is tiled");
  if (rows == 0) return;
  const Impl::Lease h(*impl_);
  impl_->read_rows(*h, index, y0, rows, dst);
}

void TiffReader::Impl::read_rows(Handle& h, index_t index, index_t y0, index_t rows, unsigned char* dst) const {
  select_directory(h, index);
  TIFF* tif = h.tif;
  const index_t height = layout.height;
  const index_t per_strip = rows_per_strip(tif);
  const auto rb = static_cast<index_t>(row_bytes);
  // File rows [f0, f1) hold the requested rows; flipped, file row f lands in dst row f1 - 1 - f.
  const index_t f0 = flip ? height - (y0 + rows) : y0, f1 = f0 + rows;
  const auto dst_row = [&](index_t f) { return dst + (flip ? f1 - 1 - f : f - f0) * rb; };
  for (index_t s = f0 / per_strip; s * per_strip < f1; ++s) {
    const index_t s0 = s * per_strip, n = std::min(per_strip, height - s0);
    const index_t lo = std::max(f0, s0), hi = std::min(f1, s0 + n);
    // A whole strip in file order (or of one row) is decoded in place; others go through a buffer.
    const bool in_place = lo == s0 && hi == s0 + n && (!flip || n == 1);
    unsigned char* target = dst_row(s0);
    if (!in_place) {
      h.strip.resize(static_cast<std::size_t>(per_strip * rb));
      target = h.strip.data();
    }
    const auto want = static_cast<tmsize_t>(n * rb);
    if (TIFFReadEncodedStrip(tif, static_cast<std::uint32_t>(s), target, want) < want)
      throw_input_error(info.path, "cannot decode strip " + std::to_string(s) + " of frame " + std::to_string(index) +
                                       (h.error.empty() ? std::string(" (short strip)") : " (" + h.error + ")"));
    if (in_place) continue;
    for (index_t f = lo; f < hi; ++f) std::memcpy(dst_row(f), target + (f - s0) * rb, static_cast<std::size_t>(rb));
  }
}

} // namespace frost::io
