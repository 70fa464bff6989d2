// Opening an MRC file decides everything once (byte order, layout, permutation, sizes) so that
// reading an item is a single pread plus a conversion loop, safe to call from many threads.
#include "frost/io/mrc_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/io/mrc_codec.hpp"
#include "staging_buffer.hpp"
#include "posix_read.hpp"

namespace frost::io {

namespace {

using detail::errno_text;
using detail::pread_all;

std::string mode_problem(std::int32_t mode) {
  const std::string readable = "frost reads modes 0, 1, 2, 6, 12 and 101";
  if (mode == 3) return "MRC mode 3 (complex int16 transform) is not supported: " + readable;
  if (mode == 4) return "MRC mode 4 (complex float32 transform) is not supported: " + readable;
  return "MRC mode " + std::to_string(mode) + " is not supported: " + readable;
}

std::string axes_text(const MrcHeader& h) {
  return "(mapc,mapr,maps) = (" + std::to_string(h.mapc) + "," + std::to_string(h.mapr) + "," +
         std::to_string(h.maps) + ")";
}

// Items read per pread in read_range: large enough to stream at disk speed, small enough that
// the raw staging buffer stays modest.
constexpr std::int64_t kChunkBytes = 64ll << 20;

} // namespace

MrcHeader read_mrc_header(const std::string& path_spec) {
  const std::string path = parse_image_ref(path_spec).path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_input_error(path, "cannot open for reading (" + errno_text() + ")");
  unsigned char raw[kMrcHeaderBytes];
  try {
    pread_all(fd, raw, sizeof raw, 0, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return parse_mrc_header(raw, path);
}

MrcReader::MrcReader(const std::string& path_spec, const ReadOptions& options) {
  const ImageRef ref = parse_image_ref(path_spec);
  if (ref.has_index())
    throw_input_error(ref.path, "a file name is expected here, not an image address (" + path_spec + ")");
  if (!ref.type.empty() && format_of(ref) != FileFormat::Mrc)
    throw_input_error(ref.path, "':" + ref.type + "' is not an MRC type");
  info_.path = ref.path;
  info_.format = FileFormat::Mrc;

  fd_ = ::open(ref.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw_input_error(ref.path, "cannot open for reading (" + errno_text() + ")");
  try {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw_input_error(ref.path, "cannot stat (" + errno_text() + ")");
    const std::int64_t file_bytes = st.st_size;
    if (file_bytes < kMrcHeaderBytes)
      throw_input_error(ref.path, "file is " + std::to_string(file_bytes) +
                                      " bytes, shorter than the 1024-byte MRC header");
    unsigned char raw[kMrcHeaderBytes];
    pread_all(fd_, raw, sizeof raw, 0, ref.path);
    header_ = parse_mrc_header(raw, ref.path);
    const MrcHeader& h = header_;

    if (!mrc_mode_readable(h.mode)) throw_input_error(ref.path, mode_problem(h.mode));
    if (h.nsymbt < 0) throw_input_error(ref.path, "negative extended header size nsymbt = " + std::to_string(h.nsymbt));
    if (!h.has_map_tag()) log_warning(ref.path + ": no 'MAP ' tag in the MRC header (pre-2000 or non-standard writer)");
    if (h.nversion == 0) log_detail(ref.path + ": MRC nversion is 0 (pre-MRC2014 writer)");

    switch (options.mode0) {
    case Mode0Sign::Signed: mode0_unsigned_ = false; break;
    case Mode0Sign::Unsigned: mode0_unsigned_ = true; break;
    case Mode0Sign::Auto:
      mode0_unsigned_ = h.imod_stamp == kImodStamp && (h.imod_flags & kImodSignedBytesFlag) == 0;
      break;
    }
    info_.mrc_mode = h.mode;
    info_.sample = mrc_sample_type(h.mode, mode0_unsigned_);
    info_.big_endian = h.endian == Endian::Big;

    decide_layout(ref.type, options);

    const std::int64_t expected = data_offset_ + item_bytes_ * info_.shape.n;
    if (file_bytes < expected)
      throw_input_error(ref.path, "file is truncated: the header (" + std::to_string(h.nx) + "x" + std::to_string(h.ny) +
                                      "x" + std::to_string(h.nz) + ", mode " + std::to_string(h.mode) +
                                      ", extended header " + std::to_string(h.nsymbt) + " bytes) needs " +
                                      std::to_string(expected) + " bytes but the file has " + std::to_string(file_bytes));
    if (file_bytes > expected)
      log_warning(ref.path + ": file has " + std::to_string(file_bytes - expected) +
                  " bytes more than its header describes (" + std::to_string(expected) + "); they are ignored");
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

MrcReader::~MrcReader() {
  if (fd_ >= 0) ::close(fd_);
}

void MrcReader::decide_layout(const std::string& forced, const ReadOptions& options) {
  const MrcHeader& h = header_;
  const std::string ext = file_extension(info_.path);
  enum class As { Undecided, Stack, Volume } as = As::Undecided;
  // Stack/volume decision procedure (docs/formats.md#stacks-volumes-and-volume-stacks), in order.
  if (forced == "mrcs" || forced == "st") as = As::Stack;
  else if (forced == "mrc" || forced == "map") as = As::Volume;
  else if (ext == "mrcs" || ext == "st") as = As::Stack;

  index_t depth = 1; // sections per item
  Content content = Content::Image;
  bool decided = false;
  if (as != As::Volume && h.ispg >= 401 && h.ispg <= 630) {
    if (h.mz > 0 && h.nz % h.mz == 0) {
      content = Content::VolumeStack;
      depth = h.mz;
      decided = true;
    } else {
      log_warning(info_.path + ": ispg " + std::to_string(h.ispg) + " marks a volume stack but nz = " +
                  std::to_string(h.nz) + " is not a multiple of mz = " + std::to_string(h.mz) +
                  "; ignoring ispg");
    }
  }
  if (!decided) {
    if (as == As::Undecided) {
      switch (options.expect) {
      case Expect::Stack: as = As::Stack; break;
      case Expect::Volume: as = As::Volume; break;
      case Expect::Image: as = h.nz == 1 ? As::Undecided : As::Stack; break;
      case Expect::Auto: as = h.nz == 1 ? As::Undecided : As::Volume; break;
      }
    }
    if (as == As::Stack) content = Content::Stack;
    else if (as == As::Volume) { content = Content::Volume; depth = h.nz; }
    else content = Content::Image;
  }

  // Axis permutation: only meaningful for a single volume.
  std::array<index_t, 3> size{h.nx, h.ny, depth};
  std::array<double, 3> start{double(h.nxstart), double(h.nystart), double(h.nzstart)};
  const bool standard = h.mapc == 1 && h.mapr == 2 && h.maps == 3;
  const bool unset = h.mapc == 0 && h.mapr == 0 && h.maps == 0;
  if (unset) {
    log_warning(info_.path + ": mapc/mapr/maps are 0; assuming the standard order 1,2,3");
  } else if (!standard) {
    std::array<int, 3> axes{h.mapc, h.mapr, h.maps};
    std::array<int, 3> sorted = axes;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != std::array<int, 3>{1, 2, 3})
      throw_input_error(info_.path, "invalid axis order " + axes_text(h));
    if (content == Content::Image) { // a permuted single section is a volume of depth 1
      content = Content::Volume;
      depth = h.nz;
    }
    if (content != Content::Volume)
      throw_input_error(info_.path, "axis order " + axes_text(h) + " is supported for volumes only, but the file is read as a " +
                                        to_string(content));
    permuted_ = true;
    for (int i = 0; i < 3; ++i) file_axis_[i] = axes[i] - 1;
    const std::array<index_t, 3> file_size{h.nx, h.ny, h.nz};
    const std::array<double, 3> file_start = start;
    for (int i = 0; i < 3; ++i) {
      size[file_axis_[i]] = file_size[i];
      start[file_axis_[i]] = file_start[i];
    }
  }

  info_.content = content;
  const index_t count = (content == Content::Stack) ? h.nz : h.nz / depth;
  info_.shape = Shape{size[0], size[1], size[2], count};
  data_offset_ = kMrcHeaderBytes + static_cast<std::int64_t>(h.nsymbt);
  item_bytes_ = static_cast<std::int64_t>(mrc_row_bytes(h.mode, h.nx)) * h.ny * depth;

  // cella and mx/my/mz run along X, Y, Z already (MRC2014), so they are not permuted;
  // the start indices belong to columns/rows/sections and were permuted above.
  const std::array<std::int32_t, 3> m{h.mx, h.my, h.mz};
  for (int i = 0; i < 3; ++i)
    info_.pixel_size[i] = (m[i] > 0 && h.cella[i] > 0) ? double(h.cella[i]) / m[i] : 0.0;
  const bool has_origin = h.origin[0] != 0 || h.origin[1] != 0 || h.origin[2] != 0;
  for (int i = 0; i < 3; ++i)
    info_.origin_A[i] = has_origin ? double(h.origin[i]) : start[i] * info_.pixel_size[i];
}

void MrcReader::decode_items(const unsigned char* raw, index_t count, float* out) const {
  const MrcHeader& h = header_;
  const bool swap = h.endian == Endian::Big;
  const index_t rows = (item_bytes_ / static_cast<std::int64_t>(mrc_row_bytes(h.mode, h.nx))) * count;
  if (!permuted_) {
    decode_mrc_rows(h.mode, raw, swap, mode0_unsigned_, h.nx, rows, out);
    return;
  }
  std::vector<float> file_order(static_cast<std::size_t>(h.nx) * static_cast<std::size_t>(rows));
  decode_mrc_rows(h.mode, raw, swap, mode0_unsigned_, h.nx, rows, file_order.data());
  const Shape& s = info_.shape;
  const std::array<index_t, 3> stride{1, s.x, s.x * s.y}; // output strides along x, y, z
  const index_t sc = stride[file_axis_[0]], sr = stride[file_axis_[1]], ss = stride[file_axis_[2]];
  std::size_t i = 0;
  for (index_t k = 0; k < h.nz; ++k)
    for (index_t j = 0; j < h.ny; ++j)
      for (index_t c = 0; c < h.nx; ++c) out[c * sc + j * sr + k * ss] = file_order[i++];
}

bool MrcReader::reads_in_place() const {
  return !permuted_ && header_.mode == 2 && header_.endian == Endian::Little;
}

void MrcReader::read(index_t index, float* out) const {
  check_index(index);
  const std::int64_t offset = data_offset_ + index * item_bytes_;
  const auto bytes = static_cast<std::size_t>(item_bytes_);
  if (reads_in_place()) { // little-endian float32: the file bytes are the result
    pread_all(fd_, reinterpret_cast<unsigned char*>(out), bytes, offset, info_.path);
    return;
  }
  std::vector<unsigned char> fallback;
  unsigned char* raw = detail::staging_buffer(bytes, fallback);
  pread_all(fd_, raw, bytes, offset, info_.path);
  decode_items(raw, 1, out);
}

void MrcReader::read_bytes(std::int64_t offset, std::size_t bytes, unsigned char* dst) const {
  pread_all(fd_, dst, bytes, offset, info_.path);
}

void MrcReader::read_range(index_t first, index_t count, float* out) const {
  if (count <= 0) return;
  check_index(first);
  check_index(first + count - 1);
  const index_t per_chunk = std::max<index_t>(1, kChunkBytes / std::max<std::int64_t>(item_bytes_, 1));
  const index_t per_item = info_.shape.pixels_per_item();
  if (reads_in_place()) {
    pread_all(fd_, reinterpret_cast<unsigned char*>(out), static_cast<std::size_t>(count * item_bytes_),
              data_offset_ + first * item_bytes_, info_.path);
    return;
  }
  std::vector<unsigned char> fallback;
  for (index_t done = 0; done < count;) {
    const index_t k = std::min(per_chunk, count - done);
    const auto bytes = static_cast<std::size_t>(k * item_bytes_);
    unsigned char* raw = detail::staging_buffer(bytes, fallback);
    pread_all(fd_, raw, bytes, data_offset_ + (first + done) * item_bytes_, info_.path);
    if (permuted_) {
      for (index_t j = 0; j < k; ++j) decode_items(raw + j * item_bytes_, 1, out + (done + j) * per_item);
    } else {
      decode_items(raw, k, out + done * per_item);
    }
    done += k;
  }
}

} // namespace frost::io
