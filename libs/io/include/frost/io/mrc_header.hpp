#pragma once
/// @file mrc_header.hpp
/// @brief The 1024-byte MRC2014 header, parsed field by field in either byte order
/// (docs/formats.md#header-and-byte-order).
#include <array>
#include <cstdint>
#include <string>

namespace frost::io {

/// @brief Size of the fixed MRC header; the extended header (nsymbt bytes) follows it.
constexpr int kMrcHeaderBytes = 1024;
/// @brief IMOD's stamp at byte 152 ("IMOD" read as a little-endian int32).
constexpr std::int32_t kImodStamp = 1146047817;
/// @brief Bit of IMOD's flags (byte 156) saying mode-0 bytes are signed.
constexpr std::int32_t kImodSignedBytesFlag = 1;

/// @brief Byte order of a file.
enum class Endian { Little, Big };

/// @brief MRC data modes frost knows (docs/formats.md#modes).
enum class MrcMode : std::int32_t {
  Int8 = 0,
  Int16 = 1,
  Float32 = 2,
  ComplexInt16 = 3,   ///< refused on read
  ComplexFloat32 = 4, ///< refused on read
  UInt16 = 6,
  Float16 = 12,
  UInt4 = 101
};

/// @brief All header fields in file order (columns, rows, sections: before any axis permutation).
/// Numeric fields are in host byte order once parsed; `extra1`/`extra2` keep the raw bytes.
struct MrcHeader {
  std::int32_t nx = 0, ny = 0, nz = 0;
  std::int32_t mode = 2;
  std::int32_t nxstart = 0, nystart = 0, nzstart = 0;
  std::int32_t mx = 0, my = 0, mz = 0;
  std::array<float, 3> cella{0, 0, 0};   ///< cell size in A along X, Y, Z
  std::array<float, 3> cellb{90, 90, 90}; ///< cell angles in degrees
  std::int32_t mapc = 1, mapr = 2, maps = 3;
  float dmin = 0, dmax = -1, dmean = -2; ///< dmax < dmin means "not computed"
  std::int32_t ispg = 0;
  std::int32_t nsymbt = 0;
  std::array<unsigned char, 8> extra1{};  ///< bytes 96-103
  std::array<char, 4> exttyp{};           ///< bytes 104-107
  std::int32_t nversion = 0;
  std::array<unsigned char, 40> extra2{}; ///< bytes 112-151
  std::int32_t imod_stamp = 0;            ///< byte 152
  std::int32_t imod_flags = 0;            ///< byte 156
  std::array<unsigned char, 36> extra3{}; ///< bytes 160-195
  std::array<float, 3> origin{0, 0, 0};   ///< A (MRC2000)
  std::array<char, 4> map{};              ///< "MAP " in valid files
  std::array<unsigned char, 4> machst{};  ///< machine stamp as stored
  float rms = -1;
  std::int32_t nlabl = 0;
  std::array<std::array<char, 80>, 10> labels{};

  Endian endian = Endian::Little; ///< byte order of the file this header came from

  /// @brief Label `i` (0-based) without trailing blanks and NULs.
  std::string label(int i) const;
  /// @brief Sets label `i` (cut to 80 characters, padded with blanks).
  void set_label(int i, const std::string& text);
  /// @brief True when the `MAP ` tag is present.
  bool has_map_tag() const;
};

/// @brief Byte order named by the machine stamp, or false when the stamp is not one of
/// 44 44, 44 41 (little) or 11 11 (big).
bool endian_from_stamp(const unsigned char* header, Endian* out);

/// @brief Byte order of a raw header: the machine stamp if valid and consistent, else the
/// heuristic (docs/formats.md#header-and-byte-order: a plausible mode and 0 < nx < 2^24). Throws an
/// Input error naming `path` when neither byte order gives a plausible header.
Endian detect_mrc_endian(const unsigned char* header, const std::string& path);

/// @brief Parses the 1024 bytes at `header` (byte order detected). Does not validate sizes or modes.
MrcHeader parse_mrc_header(const unsigned char* header, const std::string& path);

/// @brief Serialises a header little-endian with machine stamp 44 44 00 00 (what frost writes),
/// keeping every other field as given.
std::array<unsigned char, kMrcHeaderBytes> serialize_mrc_header(const MrcHeader& h);

} // namespace frost::io
