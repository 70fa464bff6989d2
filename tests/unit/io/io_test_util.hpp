#pragma once
// Helpers for the frost_io tests. MRC files are built here byte by byte, without the library's
// own header code, so that reader tests do not only check the library against itself.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace frost::test {

using Bytes = std::vector<unsigned char>;

inline Bytes read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_bytes(const std::string& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

/// Puts a 4-byte value at `offset` in the requested byte order.
template <class T>
void put(Bytes& b, std::size_t offset, T value, bool big_endian = false) {
  static_assert(sizeof(T) == 4, "header words are 4 bytes");
  unsigned char raw[4];
  std::memcpy(raw, &value, 4);
  if (big_endian) std::reverse(raw, raw + 4);
  std::memcpy(b.data() + offset, raw, 4);
}

template <class T>
T get(const Bytes& b, std::size_t offset) {
  T v;
  std::memcpy(&v, b.data() + offset, sizeof(T));
  return v;
}

/// A minimal valid MRC2014 header (1024 bytes) in either byte order.
inline Bytes mrc_header(std::int32_t nx, std::int32_t ny, std::int32_t nz, std::int32_t mode,
                        bool big_endian = false, std::int32_t ispg = 0) {
  Bytes b(1024, 0);
  const std::int32_t n[3] = {nx, ny, nz};
  for (int i = 0; i < 3; ++i) {
    put<std::int32_t>(b, 4 * i, n[i], big_endian);
    put<std::int32_t>(b, 28 + 4 * i, i == 2 && ispg == 0 ? 1 : n[i], big_endian); // mx, my, mz
    put<float>(b, 52 + 4 * i, 90.f, big_endian);
    put<std::int32_t>(b, 64 + 4 * i, i + 1, big_endian);
  }
  put<std::int32_t>(b, 12, mode, big_endian);
  put<std::int32_t>(b, 88, ispg, big_endian);
  put<std::int32_t>(b, 108, 20141, big_endian);
  std::memcpy(b.data() + 208, "MAP ", 4);
  b[212] = big_endian ? 0x11 : 0x44;
  b[213] = big_endian ? 0x11 : 0x44;
  return b;
}

/// Size of one element of the MRC modes with byte-order-sensitive data.
inline std::size_t mrc_element_bytes(std::int32_t mode) {
  switch (mode) {
  case 1: case 6: case 12: return 2;
  case 2: return 4;
  default: return 1;
  }
}

/// Byte-swapped copy of a little-endian MRC file: the 56 header words except the character
/// fields (exttyp, MAP, machine stamp), and every data element. The stamp becomes 11 11 00 00,
/// or zero when `zero_stamp` (forcing the reader's heuristic).
inline Bytes byte_swapped_mrc(const Bytes& in, bool zero_stamp = false) {
  Bytes out = in;
  for (std::size_t off = 0; off < 224; off += 4) {
    if (off == 104 || off == 208 || off == 212) continue;
    std::reverse(out.begin() + static_cast<std::ptrdiff_t>(off), out.begin() + static_cast<std::ptrdiff_t>(off + 4));
  }
  out[212] = zero_stamp ? 0 : 0x11;
  out[213] = zero_stamp ? 0 : 0x11;
  out[214] = out[215] = 0;
  const auto mode = get<std::int32_t>(in, 12);
  const auto nsymbt = get<std::int32_t>(in, 92);
  const std::size_t e = mrc_element_bytes(mode);
  for (std::size_t off = 1024 + static_cast<std::size_t>(nsymbt); off + e <= out.size(); off += e)
    std::reverse(out.begin() + static_cast<std::ptrdiff_t>(off), out.begin() + static_cast<std::ptrdiff_t>(off + e));
  return out;
}

} // namespace frost::test
