// Items are encoded and written as they come; the header is only known at the end (nz, the
// statistics), so a zero placeholder is written first and patched in commit().
#include "frost/io/mrc_writer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/core/version.hpp"
#include "frost/io/float16.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/io/mrc_codec.hpp"

namespace frost::io {

namespace {

/// Moments of a block of values in a single pass. Sums are taken about the first value, which
/// keeps the variance accurate for data with a large mean; the simd reductions let the loop
/// vectorise.
struct Moments {
  double lo, hi, mean, m2;
};

Moments block_moments(const float* v, std::size_t n) {
  const float shift = v[0];
  float lo = v[0], hi = v[0];
  double sum = 0, sum_sq = 0;
#pragma omp simd reduction(min : lo) reduction(max : hi) reduction(+ : sum, sum_sq)
  for (std::size_t i = 0; i < n; ++i) {
    lo = std::min(lo, v[i]);
    hi = std::max(hi, v[i]);
    const double d = double(v[i]) - double(shift);
    sum += d;
    sum_sq += d * d;
  }
  const double mean_shifted = sum / double(n);
  return {lo, hi, double(shift) + mean_shifted, std::max(0.0, sum_sq - sum * mean_shifted)};
}

/// Chan et al.: the moments of a + b from those of a (na values) and b (nb values).
void merge_moments(Moments& a, double na, const Moments& b, double nb) {
  const double total = na + nb;
  const double delta = b.mean - a.mean;
  a.m2 += b.m2 + delta * delta * na * nb / total;
  a.mean += delta * nb / total;
  a.lo = std::min(a.lo, b.lo);
  a.hi = std::max(a.hi, b.hi);
}

/// Moments of one item: blocks of a fixed size on the threads, merged in block order, so the
/// result does not depend on the thread count (a full-size micrograph is ~24 M values).
Moments item_moments(const float* v, std::size_t n) {
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  if (blocks <= 1) return block_moments(v, n);
  std::vector<Moments> parts(blocks);
#pragma omp parallel for num_threads(std::max(1, std::min(num_threads(), static_cast<int>(blocks)))) schedule(static)
  for (std::size_t b = 0; b < blocks; ++b)
    parts[b] = block_moments(v + b * kBlock, std::min(kBlock, n - b * kBlock));
  Moments m = parts[0];
  for (std::size_t b = 1; b < blocks; ++b)
    merge_moments(m, double(b * kBlock), parts[b], double(std::min(kBlock, n - b * kBlock)));
  return m;
}

void check_fits_int32(index_t v, const char* what, const std::string& path) {
  if (v <= 0 || v > std::numeric_limits<std::int32_t>::max())
    FROST_THROW(ExitCode::Runtime, path + ": " + what + " = " + std::to_string(v) + " cannot be stored in an MRC header");
}

} // namespace

MrcWriter::MrcWriter(const std::string& path, Shape item_shape, const MrcWriteOptions& options)
    : file_(path), item_(item_shape.item()), options_(options) {
  check_fits_int32(item_.x, "nx", path);
  check_fits_int32(item_.y, "ny", path);
  check_fits_int32(item_.z, "nz", path);
  if (!mrc_mode_writable(options_.mode))
    FROST_THROW(ExitCode::Runtime, path + ": MRC mode " + std::to_string(static_cast<int>(options_.mode)) +
                                       " cannot be written (modes 0, 1, 2, 6, 12, 101)");
  const std::array<unsigned char, kMrcHeaderBytes> placeholder{};
  file_.write(placeholder.data(), placeholder.size());
}

MrcWriter::~MrcWriter() = default;

void MrcWriter::append(const float* item) {
  const index_t rows = item_.y * item_.z;
  const auto mode = static_cast<std::int32_t>(options_.mode);
  const auto n = static_cast<std::size_t>(item_.total());
  if (options_.mode == MrcMode::Float32) {
    file_.write(item, n * sizeof(float)); // the host layout is the file layout
  } else {
    encoded_.resize(mrc_row_bytes(mode, item_.x) * static_cast<std::size_t>(rows));
    encode_mrc_rows(options_.mode, item, item_.x, rows, encoded_.data());
    file_.write(encoded_.data(), encoded_.size());
  }

  // Statistics describe what a reader will get back, so float16 values are rounded first.
  const float* values = item;
  if (options_.mode == MrcMode::Float16) {
    stored_.resize(n);
    decode_mrc_rows(mode, encoded_.data(), false, false, item_.x, rows, stored_.data());
    values = stored_.data();
  }
  const Moments m = item_moments(values, n);
  if (count_ == 0) {
    min_ = m.lo;
    max_ = m.hi;
    mean_ = m.mean;
    m2_ = m.m2;
    values_ = double(n);
  } else { // merge the item's moments into the running ones
    Moments running{min_, max_, mean_, m2_};
    merge_moments(running, values_, m, double(n));
    min_ = running.lo;
    max_ = running.hi;
    mean_ = running.mean;
    m2_ = running.m2;
    values_ += double(n);
  }
  ++count_;
}

void MrcWriter::append(View<const float> items) {
  if (items.shape.item() != item_)
    FROST_THROW(ExitCode::Runtime, path() + ": appended items are " + to_string(items.shape.item()) +
                                       " but the file holds items of " + to_string(item_));
  for (index_t i = 0; i < items.shape.n; ++i) append(items.item(i).data);
}

MrcHeader MrcWriter::final_header() const {
  const std::string ext = file_extension(path());
  const bool stack_name = ext == "mrcs" || ext == "st";
  Content content;
  if (options_.content) {
    content = *options_.content;
    if (content == Content::Image && (count_ != 1 || item_.z != 1))
      FROST_THROW(ExitCode::Runtime, path() + ": Content::Image needs exactly one 2-D item");
    if (content == Content::Stack && item_.z > 1) content = Content::VolumeStack;
  } else if (item_.z == 1) {
    content = (count_ > 1 || stack_name) ? Content::Stack : Content::Image;
  } else {
    content = (count_ > 1 || stack_name) ? Content::VolumeStack : Content::Volume;
  }

  MrcHeader h;
  h.nx = static_cast<std::int32_t>(item_.x);
  h.ny = static_cast<std::int32_t>(item_.y);
  check_fits_int32(item_.z * count_, "nz", path());
  h.nz = static_cast<std::int32_t>(item_.z * count_);
  h.mode = static_cast<std::int32_t>(options_.mode);
  h.nxstart = options_.start[0];
  h.nystart = options_.start[1];
  h.nzstart = options_.start[2];
  h.mx = h.nx;
  h.my = h.ny;
  switch (content) { // docs/formats.md#what-frost-writes
  case Content::Image:
  case Content::Stack: h.mz = 1; h.ispg = 0; break;
  case Content::Volume: h.mz = h.nz; h.ispg = 1; break;
  case Content::VolumeStack: h.mz = static_cast<std::int32_t>(item_.z); h.ispg = 401; break;
  }
  const std::array<std::int32_t, 3> m{h.mx, h.my, h.mz};
  for (int i = 0; i < 3; ++i) {
    h.cella[i] = options_.pixel_size > 0 ? static_cast<float>(m[i] * options_.pixel_size) : 0.f;
    h.cellb[i] = 90.f;
    h.origin[i] = options_.origin_A[i];
  }
  h.mapc = 1;
  h.mapr = 2;
  h.maps = 3;
  h.dmin = static_cast<float>(min_);
  h.dmax = static_cast<float>(max_);
  h.dmean = static_cast<float>(mean_);
  h.rms = static_cast<float>(std::sqrt(m2_ / std::max(values_, 1.0)));
  h.nsymbt = 0;
  h.nversion = 20141;
  const char tag[4] = {'M', 'A', 'P', ' '};
  std::copy(tag, tag + 4, h.map.begin());
  h.machst = {0x44, 0x44, 0x00, 0x00};
  h.nlabl = 1;
  h.set_label(0, options_.label.empty() ? "frost " + version_string() : options_.label);
  return h;
}

void MrcWriter::commit() {
  if (count_ == 0) FROST_THROW(ExitCode::Runtime, path() + ": no image was written; an MRC file needs at least one");
  const auto bytes = serialize_mrc_header(final_header());
  file_.write_at(0, bytes.data(), bytes.size());
  file_.commit();
}

void write_mrc(const std::string& path, View<const float> data, const MrcWriteOptions& options) {
  MrcWriter writer(path, data.shape.item(), options);
  writer.append(data);
  writer.commit();
}

} // namespace frost::io
