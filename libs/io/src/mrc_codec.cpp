// Per-mode conversion loops. Kept branch-free inside the loops so they vectorise; the byte swap
// is a separate path because it is rare (big-endian files).
#include "frost/io/mrc_codec.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <sstream>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/io/float16.hpp"

namespace frost::io {

// Encoding copies host values straight into the little-endian file layout.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "frost::io assumes a little-endian host");

namespace {

template <class T>
T load(const unsigned char* p, bool swap) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, p, sizeof(T));
  if (swap) std::reverse(bytes, bytes + sizeof(T));
  T v;
  std::memcpy(&v, bytes, sizeof(T));
  return v;
}

template <class T>
void convert(const unsigned char* src, bool swap, std::size_t n, float* out) {
  if (!swap) {
    for (std::size_t i = 0; i < n; ++i) {
      T v;
      std::memcpy(&v, src + i * sizeof(T), sizeof(T));
      out[i] = static_cast<float>(v);
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(load<T>(src + i * sizeof(T), true));
  }
}

// All 65536 half values as floats (256 KiB): a lookup is several times faster than decoding
// the bits, and exact because the table is filled by half_to_float.
const float* half_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536);
    for (std::uint32_t h = 0; h < 65536; ++h) t[h] = half_to_float(static_cast<std::uint16_t>(h));
    return t;
  }();
  return table.data();
}

void convert_half(const unsigned char* src, bool swap, std::size_t n, float* out) {
  const float* table = half_table();
  for (std::size_t i = 0; i < n; ++i) out[i] = table[load<std::uint16_t>(src + 2 * i, swap)];
}

void unpack_nibbles(const unsigned char* src, index_t nx, index_t rows, float* out) {
  const std::size_t row_bytes = static_cast<std::size_t>((nx + 1) / 2);
  for (index_t r = 0; r < rows; ++r) {
    const unsigned char* row = src + static_cast<std::size_t>(r) * row_bytes;
    float* o = out + r * nx;
    for (index_t x = 0; x < nx; ++x) {
      const unsigned char byte = row[x / 2];
      o[x] = static_cast<float>((x & 1) ? (byte >> 4) : (byte & 0x0f));
    }
  }
}

[[noreturn]] void not_representable(float v, std::size_t i, MrcMode mode, double lo, double hi) {
  std::ostringstream msg;
  msg << "value " << v << " at element " << i << " cannot be stored exactly in MRC mode "
      << static_cast<int>(mode) << " (integers " << lo << ".." << hi << "); frost never rescales";
  FROST_THROW(ExitCode::Runtime, msg.str());
}

template <class T>
void encode_int(const float* src, std::size_t n, MrcMode mode, unsigned char* dst) {
  const double lo = static_cast<double>(std::numeric_limits<T>::min());
  const double hi = static_cast<double>(std::numeric_limits<T>::max());
  for (std::size_t i = 0; i < n; ++i) {
    const float v = src[i];
    if (!(v >= lo && v <= hi)) not_representable(v, i, mode, lo, hi); // also catches NaN
    const T t = static_cast<T>(v);                                      // in range: defined
    if (static_cast<float>(t) != v) not_representable(v, i, mode, lo, hi); // had a fraction
    std::memcpy(dst + i * sizeof(T), &t, sizeof(T)); // x86/ARM hosts are little-endian
  }
}

} // namespace

bool mrc_mode_readable(std::int32_t mode) {
  return mode == 0 || mode == 1 || mode == 2 || mode == 6 || mode == 12 || mode == 101;
}

bool mrc_mode_writable(MrcMode mode) { return mrc_mode_readable(static_cast<std::int32_t>(mode)); }

SampleType mrc_sample_type(std::int32_t mode, bool mode0_unsigned) {
  switch (mode) {
  case 0: return mode0_unsigned ? SampleType::UInt8 : SampleType::Int8;
  case 1: return SampleType::Int16;
  case 2: return SampleType::Float32;
  case 6: return SampleType::UInt16;
  case 12: return SampleType::Float16;
  case 101: return SampleType::UInt4;
  default: FROST_THROW(ExitCode::Runtime, "mrc_sample_type: unsupported mode " + std::to_string(mode));
  }
}

std::size_t mrc_row_bytes(std::int32_t mode, index_t nx) {
  const auto n = static_cast<std::size_t>(nx);
  switch (mode) {
  case 0: return n;
  case 1: case 6: case 12: return 2 * n;
  case 2: return 4 * n;
  case 3: return 4 * n;
  case 4: return 8 * n;
  case 101: return (n + 1) / 2;
  default: FROST_THROW(ExitCode::Runtime, "mrc_row_bytes: unsupported mode " + std::to_string(mode));
  }
}

void decode_mrc_rows(std::int32_t mode, const unsigned char* src, bool swap, bool mode0_unsigned,
                     index_t nx, index_t rows, float* out) {
  const auto n = static_cast<std::size_t>(nx * rows);
  switch (mode) {
  case 0:
    if (mode0_unsigned) convert<std::uint8_t>(src, false, n, out);
    else convert<std::int8_t>(src, false, n, out);
    return;
  case 1: convert<std::int16_t>(src, swap, n, out); return;
  case 2: convert<float>(src, swap, n, out); return;
  case 6: convert<std::uint16_t>(src, swap, n, out); return;
  case 12: convert_half(src, swap, n, out); return;
  case 101: unpack_nibbles(src, nx, rows, out); return; // bytes have no order
  default: FROST_THROW(ExitCode::Runtime, "decode_mrc_rows: unsupported mode " + std::to_string(mode));
  }
}

void encode_mrc_rows(MrcMode mode, const float* src, index_t nx, index_t rows, unsigned char* dst) {
  const auto n = static_cast<std::size_t>(nx * rows);
  switch (mode) {
  case MrcMode::Int8: encode_int<std::int8_t>(src, n, mode, dst); return;
  case MrcMode::Int16: encode_int<std::int16_t>(src, n, mode, dst); return;
  case MrcMode::UInt16: encode_int<std::uint16_t>(src, n, mode, dst); return;
  case MrcMode::Float32: std::memcpy(dst, src, n * sizeof(float)); return;
  case MrcMode::Float16:
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint16_t h = float_to_half(src[i]);
      std::memcpy(dst + 2 * i, &h, 2);
    }
    return;
  case MrcMode::UInt4: {
    const std::size_t row_bytes = mrc_row_bytes(101, nx);
    std::memset(dst, 0, row_bytes * static_cast<std::size_t>(rows));
    for (index_t r = 0; r < rows; ++r) {
      for (index_t x = 0; x < nx; ++x) {
        const float v = src[r * nx + x];
        if (!(v >= 0.f && v <= 15.f)) not_representable(v, static_cast<std::size_t>(r * nx + x), mode, 0, 15);
        const auto nibble = static_cast<unsigned char>(v);
        if (static_cast<float>(nibble) != v) not_representable(v, static_cast<std::size_t>(r * nx + x), mode, 0, 15);
        dst[static_cast<std::size_t>(r) * row_bytes + static_cast<std::size_t>(x / 2)] |=
            static_cast<unsigned char>((x & 1) ? nibble << 4 : nibble);
      }
    }
    return;
  }
  default:
    FROST_THROW(ExitCode::Runtime, "MRC mode " + std::to_string(static_cast<int>(mode)) + " cannot be written");
  }
}

void swap_bytes(unsigned char* data, std::size_t count, std::size_t element_bytes) {
  for (std::size_t i = 0; i < count; ++i)
    std::reverse(data + i * element_bytes, data + (i + 1) * element_bytes);
}

} // namespace frost::io
