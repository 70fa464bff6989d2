#pragma once
/// @file mrc_reader.hpp
/// @brief Streaming MRC reader: header checks at open, then pread + conversion per item.
#include <array>
#include <cstdint>
#include <string>

#include "frost/io/image_source.hpp"
#include "frost/io/mrc_header.hpp"

namespace frost::io {

/// @brief An MRC/MRCS file opened for reading (docs/formats.md#mrc).
///
/// At open: byte order, mode, stack/volume decision, axis permutation (volumes only), extended
/// header skipped (docs/formats.md#mrc) and the file size checked (shorter than
/// the header says: Input error; longer: warning). Items are then read with pread at their
/// offset and converted to float.
class MrcReader final : public ImageSource {
public:
  /// @param path    file name, optionally with `:mrcs` / `:mrc` to force stack / volume
  /// @param options expectation for ambiguous files and the mode-0 sign rule
  explicit MrcReader(const std::string& path, const ReadOptions& options = {});
  ~MrcReader() override;

  const ImageInfo& info() const override { return info_; }
  void read(index_t index, float* out) const override;
  void read_range(index_t first, index_t count, float* out) const override;
  using ImageSource::read;
  using ImageSource::read_range;

  /// @brief The header as stored (file axis order, host byte order).
  const MrcHeader& header() const { return header_; }
  /// @brief Byte offset of the first item (1024 + nsymbt).
  std::int64_t data_offset() const { return data_offset_; }
  /// @brief Bytes of one item on disk.
  std::int64_t item_bytes() const { return item_bytes_; }
  /// @brief True when the volume's axes were permuted into x-fastest order on read.
  bool permuted() const { return permuted_; }
  /// @brief True when mode-0 bytes are read as uint8.
  bool mode0_unsigned() const { return mode0_unsigned_; }
  /// @brief The stored bytes [offset, offset + bytes) of the file (pread; thread-safe), for
  /// callers that decode items themselves (the GPU movie upload). Input error past the end.
  void read_bytes(std::int64_t offset, std::size_t bytes, unsigned char* dst) const;

private:
  void decide_layout(const std::string& forced_type, const ReadOptions& options);
  void decode_items(const unsigned char* raw, index_t count, float* out) const;
  bool reads_in_place() const;

  ImageInfo info_;
  MrcHeader header_;
  int fd_ = -1;
  std::int64_t data_offset_ = 0;
  std::int64_t item_bytes_ = 0;
  bool mode0_unsigned_ = false;
  bool permuted_ = false;
  std::array<int, 3> file_axis_{0, 1, 2}; ///< output axis (0=x) of file columns, rows, sections
};

/// @brief Reads only the header of an MRC file (byte order detected); Input errors name the file.
MrcHeader read_mrc_header(const std::string& path);

} // namespace frost::io
