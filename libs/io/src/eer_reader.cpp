// EER movies. libtiff is used once, at open, to walk the page chain and note where each page's
// strips lie; frames are then read with pread and decoded by eer_decode.cpp, so any number of
// threads can render fractions at once without libtiff handles (docs/formats.md#eer-container).
#include "frost/io/eer_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <tiffio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/eer_metadata.hpp"

namespace frost::io {

namespace {

constexpr char kLegacyFooterOk[] = "ThermoFisherECComprOK000";
constexpr char kLegacyFooterErr[] = "ThermoFisherECComprERR00";
constexpr std::size_t kLegacyFooterBytes = 24;
constexpr ttag_t kTagMetadata = 65001;   // acquisition XML on the first page
constexpr ttag_t kTagRunBits = 65007;    // compression 65002: run-length bits
constexpr ttag_t kTagHorizontal = 65008; // compression 65002: horizontal sub-pixel bits
constexpr ttag_t kTagVertical = 65009;   // compression 65002: vertical sub-pixel bits

/// A byte range of the file holding (part of) one frame's stream.
struct Extent {
  std::int64_t offset = 0;
  std::int64_t bytes = 0;
};

void pread_all(int fd, unsigned char* dst, std::size_t bytes, std::int64_t offset, const std::string& path) {
  while (bytes > 0) {
    const ssize_t got = ::pread(fd, dst, bytes, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      throw_input_error(path, got == 0 ? "file ends inside an EER frame (truncated file?)"
                                       : std::string("read failed: ") + std::strerror(errno));
    dst += got;
    bytes -= static_cast<std::size_t>(got);
    offset += got;
  }
}

/// An open libtiff handle whose warnings (unknown private tags) are silenced and whose last
/// error is kept for messages.
struct TiffHandle {
  TIFF* tif = nullptr;
  std::string error;
  TiffHandle() = default;
  TiffHandle(const TiffHandle&) = delete;
  TiffHandle& operator=(const TiffHandle&) = delete;
  ~TiffHandle() {
    if (tif) TIFFClose(tif);
  }
};

#if TIFFLIB_VERSION >= 20221213
int on_tiff_error(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
  char text[512];
  std::vsnprintf(text, sizeof text, fmt, ap);
  static_cast<TiffHandle*>(user)->error = std::string(module ? module : "libtiff") + ": " + text;
  return 1;
}
int on_tiff_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }
#endif

void open_tiff(TiffHandle& h, const std::string& path) {
#if TIFFLIB_VERSION >= 20221213
  TIFFOpenOptions* opts = TIFFOpenOptionsAlloc();
  TIFFOpenOptionsSetErrorHandlerExtR(opts, on_tiff_error, &h);
  TIFFOpenOptionsSetWarningHandlerExtR(opts, on_tiff_warning, &h);
  h.tif = TIFFOpenExt(path.c_str(), "r", opts);
  TIFFOpenOptionsFree(opts);
#else
  h.tif = TIFFOpen(path.c_str(), "r");
#endif
  if (!h.tif) throw_input_error(path, "cannot open the EER container as TIFF" + (h.error.empty() ? "" : " (" + h.error + ")"));
}

/// Bytes of a private tag of the current page (libtiff registers unknown tags as anonymous
/// fields that pass a count); false when the page does not have it.
bool private_tag_bytes(TIFF* tif, ttag_t tag, std::vector<unsigned char>& bytes, TIFFDataType& type) {
  const TIFFField* field = TIFFFindField(tif, tag, TIFF_ANY);
  if (!field || !TIFFFieldPassCount(field)) return false;
  void* data = nullptr;
  std::uint64_t count = 0;
  if (TIFFFieldReadCount(field) == TIFF_VARIABLE2) {
    std::uint32_t n = 0;
    if (!TIFFGetField(tif, tag, &n, &data)) return false;
    count = n;
  } else {
    std::uint16_t n = 0;
    if (!TIFFGetField(tif, tag, &n, &data)) return false;
    count = n;
  }
  type = TIFFFieldDataType(field);
  // libtiff keeps a custom value at its in-memory width, which is TIFFDataWidth only for the
  // byte and integer types (a RATIONAL is held as 4-byte floats): any other type is not an EER
  // tag, and reading it by its file width overran the buffer (fuzz finding).
  int width = 0;
  switch (type) {
  case TIFF_BYTE: case TIFF_SBYTE: case TIFF_UNDEFINED: case TIFF_ASCII: width = 1; break;
  case TIFF_SHORT: case TIFF_SSHORT: width = 2; break;
  case TIFF_LONG: case TIFF_SLONG: width = 4; break;
  default: return false;
  }
  if (data == nullptr) return false;
  bytes.assign(static_cast<const unsigned char*>(data), static_cast<const unsigned char*>(data) + count * width);
  return true;
}

/// An unsigned integer private tag, or `fallback` when absent.
int private_tag_int(TIFF* tif, ttag_t tag, int fallback) {
  std::vector<unsigned char> b;
  TIFFDataType type = TIFF_NOTYPE;
  if (!private_tag_bytes(tif, tag, b, type) || b.empty()) return fallback;
  switch (type) {
  case TIFF_SHORT: {
    std::uint16_t v;
    std::memcpy(&v, b.data(), 2); // libtiff returns host byte order
    return v;
  }
  case TIFF_LONG: {
    std::uint32_t v;
    std::memcpy(&v, b.data(), 4);
    return static_cast<int>(v);
  }
  default: return b[0];
  }
}

std::string size_text(index_t w, index_t h) { return std::to_string(w) + "x" + std::to_string(h); }

} // namespace

struct EerReader::Impl {
  ImageInfo info;
  EerOptions options;
  EerEncoding encoding;
  index_t width = 0, height = 0;
  index_t group = 1;
  bool legacy = false;
  std::string metadata;
  double raw_frame_dose = 0; ///< e/Å² per raw frame from the metadata, 0 when unknown
  std::vector<std::vector<Extent>> frames;
  int fd = -1;
  mutable std::atomic<index_t> corrupt{0};

  void index_tiff(std::int64_t file_size);
  void index_legacy(std::int64_t file_size);
};

void EerReader::Impl::index_tiff(std::int64_t file_size) {
  const std::string& path = info.path;
  TiffHandle h;
  open_tiff(h, path);
  TIFF* tif = h.tif;
  bool have_first = false;
  index_t page = 0, skipped = 0;
  do {
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    if (compression == COMPRESSION_NONE) { // a TIA sum page, not an event frame
      ++skipped;
      ++page;
      continue;
    }
    std::uint32_t w = 0, hgt = 0;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &hgt);
    EerEncoding e;
    if (compression == kEerCompressionDetailed) {
      e = make_detailed_eer_encoding(private_tag_int(tif, kTagRunBits, 7), private_tag_int(tif, kTagHorizontal, 2),
                                     private_tag_int(tif, kTagVertical, 2), path);
    } else if (compression == kEerCompression8Bit || compression == kEerCompression7Bit) {
      e = eer_encoding_for_compression(compression, path);
    } else {
      throw_input_error(path, "TIFF page " + std::to_string(page) + " has compression " + std::to_string(compression) +
                                  ", not an EER encoding (65000, 65001 or 65002)");
    }
    if (!have_first) {
      have_first = true;
      encoding = e;
      width = w;
      height = hgt;
      if (width < 1 || height < 1 || width * height > (index_t(1) << 32))
        throw_input_error(path, "EER frame size " + size_text(width, height) + " is not supported");
      std::vector<unsigned char> xml;
      TIFFDataType type = TIFF_NOTYPE;
      if (private_tag_bytes(tif, kTagMetadata, xml, type))
        metadata.assign(xml.begin(), std::find(xml.begin(), xml.end(), '\0'));
    } else if (index_t(w) != width || index_t(hgt) != height || e.run_bits != encoding.run_bits ||
               e.symbol_bits != encoding.symbol_bits || e.max_run_has_symbol != encoding.max_run_has_symbol) {
      throw_input_error(path, "EER page " + std::to_string(page) + " is " + size_text(w, hgt) + " " + e.describe() +
                                  " but the first frame is " + size_text(width, height) + " " + encoding.describe());
    }
    std::vector<Extent> extents;
    const std::uint32_t strips = TIFFNumberOfStrips(tif);
    for (std::uint32_t s = 0; s < strips; ++s) {
      const std::uint64_t off_raw = TIFFGetStrileOffset(tif, s);
      const std::uint64_t len_raw = TIFFGetStrileByteCount(tif, s);
      // Checked here, unsigned, so the merge below cannot overflow on a corrupt strip table.
      const auto size = static_cast<std::uint64_t>(file_size);
      if (off_raw > size || len_raw > size - off_raw)
        throw_input_error(path, "EER page " + std::to_string(page) + " strip " + std::to_string(s) +
                                    " lies beyond the end of the file (truncated file?)");
      const auto off = static_cast<std::int64_t>(off_raw);
      const auto len = static_cast<std::int64_t>(len_raw);
      if (!extents.empty() && extents.back().offset + extents.back().bytes == off)
        extents.back().bytes += len; // contiguous strips: one read
      else
        extents.push_back({off, len});
    }
    frames.push_back(std::move(extents));
    ++page;
  } while (TIFFReadDirectory(tif));
  if (!h.error.empty()) throw_input_error(path, "broken TIFF page chain (" + h.error + ")");
  if (frames.empty())
    throw_input_error(path, "no EER frames (" + std::to_string(skipped) + " uncompressed page(s) only)");
  if (skipped > 0) log_warning(path + ": " + std::to_string(skipped) + " uncompressed TIFF page(s) (a TIA sum) skipped");
}

void EerReader::Impl::index_legacy(std::int64_t file_size) {
  const std::string& path = info.path;
  std::int64_t pos = file_size;
  while (pos > 0) {
    if (pos < std::int64_t(kLegacyFooterBytes + 8))
      throw_input_error(path, "legacy EER file: " + std::to_string(pos) + " bytes before the first frame footer");
    char footer[kLegacyFooterBytes];
    pread_all(fd, reinterpret_cast<unsigned char*>(footer), kLegacyFooterBytes, pos - std::int64_t(kLegacyFooterBytes), path);
    if (std::memcmp(footer, kLegacyFooterErr, kLegacyFooterBytes) == 0)
      throw_input_error(path, "legacy EER frame " + std::to_string(frames.size()) +
                                  " (counted from the end) is marked broken by the camera (footer ...ERR00)");
    if (std::memcmp(footer, kLegacyFooterOk, kLegacyFooterBytes) != 0)
      throw_input_error(path, "neither a TIFF nor a legacy EER file (no ThermoFisherECComprOK000 footer at byte " +
                                  std::to_string(pos - std::int64_t(kLegacyFooterBytes)) + ")");
    unsigned char word[8];
    pos -= std::int64_t(kLegacyFooterBytes) + 8;
    pread_all(fd, word, 8, pos, path);
    std::uint64_t words = 0;
    for (int i = 7; i >= 0; --i) words = words << 8 | word[i]; // little-endian count of 8-byte words
    if (words > std::uint64_t(pos) / 8)
      throw_input_error(path, "legacy EER frame length (" + std::to_string(words) + " words) exceeds the file");
    pos -= static_cast<std::int64_t>(words * 8);
    frames.push_back({Extent{pos, static_cast<std::int64_t>(words * 8)}});
  }
  if (frames.empty()) throw_input_error(path, "empty file: neither a TIFF nor a legacy EER file");
  std::reverse(frames.begin(), frames.end());
  encoding = {8, 4, true}; // legacy files are 8-bit streams (RELION readLegacy)
  width = options.legacy_width;
  height = options.legacy_height;
}

bool eer_supported() { return true; }

EerReader::EerReader(const std::string& path, const EerOptions& options) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.info.path = path;
  m.info.format = FileFormat::Tiff;
  m.info.sample = SampleType::UInt16;
  m.options = options;
  if (!valid_eer_upsampling(options.upsampling))
    throw_usage_error("EER upsampling must be 1, 2 or 4 (got " + std::to_string(options.upsampling) + ")");
  m.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (m.fd < 0) throw_input_error(path, std::string("cannot open: ") + std::strerror(errno));
  try {
    struct stat st {};
    if (::fstat(m.fd, &st) != 0) throw_input_error(path, std::string("cannot stat: ") + std::strerror(errno));
    const std::int64_t file_size = st.st_size;
    unsigned char magic[4] = {0, 0, 0, 0};
    if (file_size >= 4) pread_all(m.fd, magic, 4, 0, path);
    const bool tiff = (magic[0] == 'I' && magic[1] == 'I' && (magic[2] == 42 || magic[2] == 43) && magic[3] == 0) ||
                      (magic[0] == 'M' && magic[1] == 'M' && magic[2] == 0 && (magic[3] == 42 || magic[3] == 43));
    m.legacy = !tiff;
    if (tiff)
      m.index_tiff(file_size);
    else
      m.index_legacy(file_size);
    for (const auto& frame : m.frames)
      for (const Extent& e : frame)
        if (e.offset < 0 || e.bytes < 0 || e.offset > file_size || e.bytes > file_size - e.offset)
          throw_input_error(path, "an EER frame lies beyond the end of the file (truncated file?)");

    if (m.encoding.symbol_bits == 2 && options.upsampling == 4)
      throw_input_error(path, "EER frames with 1+1 sub-pixel bits cannot be rendered at upsampling 4; use 1 or 2");

    // G frames per fraction given, or F fractions (G = floor(N/F)); either way the frames
    // beyond the last whole fraction are dropped.
    const auto n = static_cast<index_t>(m.frames.size());
    const EerAcquisition acquisition = parse_eer_metadata(m.metadata);
    m.raw_frame_dose = acquisition.raw_frame_dose(n).value_or(0.0);
    index_t g = options.frames_per_fraction, fractions = 0;
    if (g <= 0 && options.dose_per_fraction > 0) {
      if (!(m.raw_frame_dose > 0))
        throw_input_error(path, "--eer-dose-per-fraction needs the dose per raw frame, but the EER metadata lacks " +
                                    acquisition.missing_for_dose() + "; give --eer-group or --eer-fractions");
      const double frames_per_dose = options.dose_per_fraction / m.raw_frame_dose;
      g = static_cast<index_t>(std::max(1.0, std::min(std::round(frames_per_dose), static_cast<double>(n))));
      char line[160];
      std::snprintf(line, sizeof line, "%.4g e/A^2 per raw EER frame (metadata): %lld frame(s) per fraction for %.4g "
                    "e/A^2 per fraction (%.4g as grouped)", m.raw_frame_dose, static_cast<long long>(g),
                    options.dose_per_fraction, static_cast<double>(g) * m.raw_frame_dose);
      log_info(path + ": " + line);
    }
    if (g > 0) {
      if (g > n)
        throw_input_error(path, "holds " + std::to_string(n) + " raw EER frames, fewer than the " + std::to_string(g) +
                                    " frames per fraction requested");
      fractions = n / g;
    } else if (options.fractions > 0) {
      g = n / options.fractions;
      if (g < 1)
        throw_input_error(path, "holds " + std::to_string(n) + " raw EER frames, fewer than the " +
                                    std::to_string(options.fractions) + " fractions requested");
      fractions = options.fractions;
    } else {
      g = 1;
      fractions = n;
    }
    m.group = g;
    const index_t dropped = n - fractions * g;
    if (dropped > 0)
      log_warning(path + ": " + std::to_string(n) + " raw EER frames in fractions of " + std::to_string(g) + ": the last " +
                  std::to_string(dropped) + " frame(s) are not used");
    const index_t u = options.upsampling;
    m.info.shape = Shape{m.width * u, m.height * u, 1, fractions};
    m.info.content = fractions == 1 ? Content::Image : Content::Stack;
  } catch (...) {
    ::close(m.fd);
    throw;
  }
}

EerReader::~EerReader() {
  if (impl_ && impl_->fd >= 0) ::close(impl_->fd);
}

const ImageInfo& EerReader::info() const { return impl_->info; }
index_t EerReader::raw_frames() const { return static_cast<index_t>(impl_->frames.size()); }
index_t EerReader::frames_per_fraction() const { return impl_->group; }
index_t EerReader::sensor_width() const { return impl_->width; }
index_t EerReader::sensor_height() const { return impl_->height; }
int EerReader::upsampling() const { return impl_->options.upsampling; }
const EerEncoding& EerReader::encoding() const { return impl_->encoding; }
bool EerReader::legacy() const { return impl_->legacy; }
const std::string& EerReader::metadata_xml() const { return impl_->metadata; }
double EerReader::raw_frame_dose() const { return impl_->raw_frame_dose; }
index_t EerReader::corrupt_frames_seen() const { return impl_->corrupt.load(); }

std::size_t EerReader::raw_frame_bytes(index_t raw) const {
  const Impl& m = *impl_;
  if (raw < 0 || raw >= raw_frames())
    throw_input_error(m.info.path, "raw EER frame " + std::to_string(raw) + " requested but the file holds " +
                                       std::to_string(raw_frames()));
  std::size_t total = 0;
  for (const Extent& e : m.frames[static_cast<std::size_t>(raw)]) total += static_cast<std::size_t>(e.bytes);
  return total;
}

void EerReader::read_raw_frame(index_t raw, unsigned char* dst) const {
  const Impl& m = *impl_;
  raw_frame_bytes(raw); // checks the index
  for (const Extent& e : m.frames[static_cast<std::size_t>(raw)]) {
    pread_all(m.fd, dst, static_cast<std::size_t>(e.bytes), e.offset, m.info.path);
    dst += e.bytes;
  }
}

void EerReader::note_corrupt_frame(index_t raw) const {
  const Impl& m = *impl_;
  ++m.corrupt;
  log_warning(m.info.path + ": raw EER frame " + std::to_string(raw) + " is corrupt (its codes do not end at pixel " +
              std::to_string(m.width * m.height) + "); skipped");
}

bool EerReader::add_raw_frame(index_t raw, float* grid) const {
  const Impl& m = *impl_;
  thread_local std::vector<unsigned char> stream;
  thread_local std::vector<EerEvent> events;
  stream.resize(raw_frame_bytes(raw));
  read_raw_frame(raw, stream.data());
  if (!decode_eer_frame(stream.data(), stream.size(), m.encoding, m.width * m.height, events)) {
    note_corrupt_frame(raw);
    return false;
  }
  render_eer_events(events, m.width, m.encoding.symbol_bits, m.options.upsampling, grid);
  return true;
}

void EerReader::read(index_t index, float* out) const {
  check_index(index);
  std::fill(out, out + item_shape().total(), 0.0f);
  const index_t g = impl_->group;
  for (index_t r = index * g; r < (index + 1) * g; ++r) add_raw_frame(r, out);
}

} // namespace frost::io
