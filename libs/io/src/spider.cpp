// SPIDER images and stacks. The header is a run of float32 words (1-based numbering below, as
// in the SPIDER documentation) padded to labbyt = labrec * lenbyt bytes, where lenbyt = 4 * nsam
// is one row of the image and labrec = ceil(1024 / lenbyt) records, so a header is never smaller
// than 1024 bytes. A stack is an overall header (no data) followed by one header + data per
// image. There is no byte-order mark: the order is the one in which the size words make sense.
#include "frost/io/spider.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/mrc_codec.hpp"
#include "posix_read.hpp"

namespace frost::io {

namespace {

// Header words used by frost (1-based). Words not listed (angles, offsets, date, time, title)
// are written as zero and ignored on read.
constexpr int kNslice = 1;  // slices: 1 for a 2-D image (-1 in some very old images)
constexpr int kNrow = 2;    // rows (y)
constexpr int kIrec = 3;    // records per image including its header: labrec + nrow * nslice
constexpr int kIform = 5;   // 1 = 2-D real image, 3 = volume, negative = Fourier transforms
constexpr int kImami = 6;   // 1 when fmax, fmin, av and sig are valid
constexpr int kFmax = 7;
constexpr int kFmin = 8;
constexpr int kAv = 9;
constexpr int kSig = 10;
constexpr int kNsam = 12;   // samples per row (x)
constexpr int kLabrec = 13; // header records
constexpr int kLabbyt = 22; // header bytes = labrec * lenbyt
constexpr int kLenbyt = 23; // record bytes = 4 * nsam
constexpr int kIstack = 24; // > 0 in the overall header of a stack, < 0 indexed stack, 0 otherwise
constexpr int kMaxim = 26;  // images in a stack (overall header)
constexpr int kImgnum = 27; // 1-based image number (header of an image inside a stack)

// The smallest header labrec = ceil(1024 / lenbyt) allows, and what is read to detect the order.
constexpr std::int64_t kMinHeaderBytes = 1024;
// Integers stored in float32 words are exact up to 2^24; larger sizes cannot be written faithfully.
constexpr double kMaxExactInt = 16777216.0;
// What frost writes in istack of an overall stack header (any value > 0 marks a stack; Xmipp
// writes 2).
constexpr float kStackFlag = 2.f;

using detail::errno_text;
using detail::pread_all;

bool host_is_big_endian() {
  const std::uint32_t one = 1;
  unsigned char first = 0;
  std::memcpy(&first, &one, 1);
  return first == 0;
}

float header_word(const unsigned char* header, int word, bool swap) {
  unsigned char raw[4];
  std::memcpy(raw, header + 4 * (word - 1), 4);
  if (swap) std::reverse(raw, raw + 4);
  float v;
  std::memcpy(&v, raw, 4);
  return v;
}

bool whole_in(float v, double lo, double hi) {
  return std::isfinite(v) && double(v) == std::nearbyint(double(v)) && v >= lo && v <= hi;
}

// The size words read in this byte order are integers in range and agree with each other.
// In the wrong order a small integer such as 64.f (42 80 00 00) becomes a denormal, so at most
// one order passes.
bool plausible(const unsigned char* header, bool swap) {
  const auto w = [&](int k) { return header_word(header, k, swap); };
  const float nslice = w(kNslice), labrec = w(kLabrec), lenbyt = w(kLenbyt), labbyt = w(kLabbyt);
  return whole_in(nslice, -kMaxExactInt, kMaxExactInt) && nslice != 0.f && whole_in(w(kNrow), 1, kMaxExactInt) &&
         whole_in(w(kNsam), 1, kMaxExactInt) && whole_in(w(kIform), -kMaxExactInt, kMaxExactInt) &&
         whole_in(labrec, 1, kMaxExactInt) && whole_in(lenbyt, 1, kMaxExactInt) && whole_in(labbyt, 1, 1e12) &&
         double(labrec) * double(lenbyt) == double(labbyt);
}

std::string number(float v) {
  if (whole_in(v, -1e15, 1e15)) return std::to_string(static_cast<long long>(v));
  return std::to_string(v);
}

std::string iform_text(float iform) {
  const std::string readable = "; frost reads 2-D real SPIDER images and stacks (iform 1)";
  if (iform == 3.f) return "SPIDER volumes (iform 3) are not supported" + readable;
  if (iform < 0.f) return "SPIDER Fourier transforms (iform " + number(iform) + ") are not supported" + readable;
  return "SPIDER iform " + number(iform) + " is not supported" + readable;
}

/// A SPIDER file opened once; items are read with pread straight into the caller's buffer
/// (then byte-swapped in place when the file order is not the host's).
class SpiderReader final : public ImageSource {
public:
  explicit SpiderReader(const std::string& path);
  ~SpiderReader() override;

  const ImageInfo& info() const override { return info_; }
  void read(index_t index, float* out) const override;
  using ImageSource::read;

private:
  void parse(const unsigned char* header, std::int64_t file_bytes);

  ImageInfo info_;
  int fd_ = -1;
  bool swap_ = false;
  std::int64_t first_offset_ = 0; ///< byte offset of the data of image 0
  std::int64_t stride_ = 0;       ///< bytes from one image's data to the next (header + data)
  std::int64_t item_bytes_ = 0;   ///< data bytes of one image
};

SpiderReader::SpiderReader(const std::string& path) {
  info_.path = path;
  info_.format = FileFormat::Spider;
  info_.sample = SampleType::Float32;
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw_input_error(path, "cannot open for reading (" + errno_text() + ")");
  try {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw_input_error(path, "cannot stat (" + errno_text() + ")");
    const std::int64_t file_bytes = st.st_size;
    if (file_bytes < kMinHeaderBytes)
      throw_input_error(path, "file is " + std::to_string(file_bytes) + " bytes, shorter than the smallest SPIDER header (" +
                                  std::to_string(kMinHeaderBytes) + " bytes)");
    unsigned char header[kMinHeaderBytes];
    pread_all(fd_, header, sizeof header, 0, path);
    parse(header, file_bytes);
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

SpiderReader::~SpiderReader() {
  if (fd_ >= 0) ::close(fd_);
}

void SpiderReader::parse(const unsigned char* header, std::int64_t file_bytes) {
  const std::string& path = info_.path;
  if (plausible(header, false)) swap_ = false;
  else if (plausible(header, true)) swap_ = true;
  else
    throw_input_error(path, "not a SPIDER file: the header words nslice, nrow, nsam, iform, labrec, labbyt and lenbyt "
                            "are not consistent sizes in either byte order");
  info_.big_endian = host_is_big_endian() != swap_;
  const auto w = [&](int k) { return header_word(header, k, swap_); };

  const float nslice = w(kNslice), iform = w(kIform);
  if (nslice != 1.f && nslice != -1.f)
    throw_input_error(path, "SPIDER volumes (nslice = " + number(nslice) + ", iform " + number(iform) +
                                ") are not supported; frost reads 2-D SPIDER images and stacks");
  if (iform != 1.f) throw_input_error(path, iform_text(iform));

  const auto nsam = static_cast<std::int64_t>(w(kNsam));
  const auto nrow = static_cast<std::int64_t>(w(kNrow));
  const auto lenbyt = static_cast<std::int64_t>(w(kLenbyt));
  const auto labbyt = static_cast<std::int64_t>(w(kLabbyt));
  if (lenbyt != 4 * nsam)
    throw_input_error(path, "SPIDER record length lenbyt = " + std::to_string(lenbyt) + " does not match nsam = " +
                                std::to_string(nsam) + " (4 * nsam expected)");

  const float istack = w(kIstack);
  if (!whole_in(istack, -kMaxExactInt, kMaxExactInt))
    throw_input_error(path, "SPIDER istack word is " + number(istack) + ", not an integer");
  if (istack < 0.f)
    throw_input_error(path, "indexed SPIDER stacks (istack = " + number(istack) + ") are not supported");
  index_t count = 1;
  item_bytes_ = 4 * nsam * nrow;
  if (istack > 0.f) {
    const float maxim = w(kMaxim);
    if (!whole_in(maxim, 1, kMaxExactInt))
      throw_input_error(path, "SPIDER stack header gives maxim = " + number(maxim) + " images (at least 1 expected)");
    count = static_cast<index_t>(maxim);
    info_.content = Content::Stack;
    stride_ = labbyt + item_bytes_;
    first_offset_ = labbyt + labbyt; // overall header, then the header of image 1
  } else {
    info_.content = Content::Image;
    stride_ = item_bytes_;
    first_offset_ = labbyt;
  }
  info_.shape = Shape{nsam, nrow, 1, count};

  const std::int64_t expected = first_offset_ + (count - 1) * stride_ + item_bytes_;
  if (file_bytes < expected)
    throw_input_error(path, "file is truncated: the SPIDER header (" + std::to_string(nsam) + "x" + std::to_string(nrow) +
                                ", " + std::to_string(count) + (count == 1 ? " image" : " images") + ", header " +
                                std::to_string(labbyt) + " bytes) needs " + std::to_string(expected) +
                                " bytes but the file has " + std::to_string(file_bytes));
  if (file_bytes > expected)
    log_warning(path + ": file has " + std::to_string(file_bytes - expected) +
                " bytes more than its SPIDER header describes (" + std::to_string(expected) + "); they are ignored");
}

void SpiderReader::read(index_t index, float* out) const {
  check_index(index);
  auto* dst = reinterpret_cast<unsigned char*>(out);
  const auto bytes = static_cast<std::size_t>(item_bytes_);
  pread_all(fd_, dst, bytes, first_offset_ + index * stride_, info_.path);
  if (swap_) swap_bytes(dst, bytes / 4, 4);
}

/// Smallest, largest, mean and sum of squared deviations of some values.
struct Moments {
  double lo = 0, hi = 0, mean = 0, m2 = 0, n = 0;
};

Moments moments(const float* v, std::size_t n) {
  Moments m;
  m.n = double(n);
  float lo = v[0], hi = v[0];
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    lo = std::min(lo, v[i]);
    hi = std::max(hi, v[i]);
    sum += v[i];
  }
  m.lo = lo;
  m.hi = hi;
  m.mean = sum / m.n;
  for (std::size_t i = 0; i < n; ++i) m.m2 += (v[i] - m.mean) * (v[i] - m.mean); // second pass: accurate for large means
  return m;
}

// Chan et al.: moments of the union of two sets.
Moments merge(const Moments& a, const Moments& b) {
  if (a.n == 0) return b;
  Moments m;
  m.n = a.n + b.n;
  const double delta = b.mean - a.mean;
  m.mean = a.mean + delta * b.n / m.n;
  m.m2 = a.m2 + b.m2 + delta * delta * a.n * b.n / m.n;
  m.lo = std::min(a.lo, b.lo);
  m.hi = std::max(a.hi, b.hi);
  return m;
}

/// One header of labbyt bytes in host order. Statistics: sig is the population standard
/// deviation, like the rms frost writes in MRC headers.
std::vector<float> make_header(std::int64_t nsam, std::int64_t nrow, std::int64_t labrec, const Moments& m) {
  const std::int64_t lenbyt = 4 * nsam;
  std::vector<float> h(static_cast<std::size_t>(labrec * lenbyt / 4), 0.f);
  const auto set = [&](int word, double v) { h[static_cast<std::size_t>(word - 1)] = static_cast<float>(v); };
  set(kNslice, 1);
  set(kNrow, double(nrow));
  set(kIrec, double(labrec + nrow));
  set(kIform, 1);
  set(kImami, 1);
  set(kFmax, m.hi);
  set(kFmin, m.lo);
  set(kAv, m.mean);
  set(kSig, std::sqrt(m.m2 / std::max(m.n, 1.0)));
  set(kNsam, double(nsam));
  set(kLabrec, double(labrec));
  set(kLabbyt, double(labrec * lenbyt));
  set(kLenbyt, double(lenbyt));
  return h;
}

} // namespace

void write_spider_stack(const std::string& path, View<const float> data) {
  const Shape& s = data.shape;
  if (s.z != 1 || s.x < 1 || s.y < 1 || s.n < 1)
    throw_input_error(path, "SPIDER stacks hold 2-D images; cannot write data of shape " + to_string(s));
  const std::int64_t nsam = s.x, nrow = s.y, count = s.n;
  const std::int64_t lenbyt = 4 * nsam;
  const std::int64_t labrec = (kMinHeaderBytes + lenbyt - 1) / lenbyt;
  if (double(lenbyt) > kMaxExactInt || double(labrec * lenbyt) > kMaxExactInt || double(labrec + nrow) > kMaxExactInt ||
      double(count) > kMaxExactInt)
    throw_input_error(path, "images of " + to_string(s) + " are too large for a SPIDER header (its float32 words hold "
                                "integers exactly only up to 2^24)");

  const auto pixels = static_cast<std::size_t>(nsam * nrow);
  std::vector<Moments> per_image(static_cast<std::size_t>(count));
  Moments all;
  for (index_t i = 0; i < count; ++i) {
    per_image[static_cast<std::size_t>(i)] = moments(data.item(i).data, pixels);
    all = merge(all, per_image[static_cast<std::size_t>(i)]);
  }

  AtomicFile file(path);
  std::vector<float> header = make_header(nsam, nrow, labrec, all);
  header[kIstack - 1] = kStackFlag;
  header[kMaxim - 1] = static_cast<float>(count);
  const std::size_t header_bytes = header.size() * sizeof(float);
  file.write(header.data(), header_bytes);
  for (index_t i = 0; i < count; ++i) {
    header = make_header(nsam, nrow, labrec, per_image[static_cast<std::size_t>(i)]);
    header[kImgnum - 1] = static_cast<float>(i + 1);
    file.write(header.data(), header_bytes);
    file.write(data.item(i).data, pixels * sizeof(float)); // host order, x fastest: the SPIDER layout
  }
  file.commit();
}

std::unique_ptr<ImageSource> open_spider(const std::string& path) { return std::make_unique<SpiderReader>(path); }

} // namespace frost::io
