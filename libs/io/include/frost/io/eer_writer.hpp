#pragma once
/// @file eer_writer.hpp
/// @brief EER movies as TIFF (docs/formats.md#writing-eer): one page per raw frame holding its
/// bit stream as a single strip, the way the Falcon cameras write them. Needs libtiff.
#include <string>
#include <vector>

#include "frost/core/shape.hpp"
#include "frost/io/eer_decode.hpp"

namespace frost::io {

/// @brief How write_eer_tiff lays out the file.
struct EerWriteOptions {
  /// TIFF compression code: 65000 (8-bit runs + 4-bit symbols), 65001 (7 + 4) or 65002 (bit
  /// sizes in tags 65007-65009: run_bits, sub_bits, sub_bits).
  int compression = kEerCompression7Bit;
  int run_bits = 7; ///< 65002 only
  int sub_bits = 2; ///< 65002 only: sub-pixel bits per axis (2 or 1)
  bool bigtiff = true;  ///< BigTIFF, as the cameras write
  /// Acquisition XML for tag 65001 of the first page (bytes, type UNDEFINED; eer_metadata_xml()
  /// makes one); none when empty.
  /// Readers such as tifffile take a file for EER only when it starts with `<metadata>`.
  std::string metadata;
};

/// @brief The encoding a file written with `options` is read with (what the reader derives
/// from its compression and tags). @throw frost::Error(Usage) for an unknown compression.
EerEncoding eer_write_encoding(const EerWriteOptions& options);

/// @brief Writes `streams` (one encoded raw frame each, from encode_eer_frame) as an EER TIFF of
/// a `width` x `height` sensor. The file appears whole or not at all (AtomicFile, part of an
/// open OutputSet). @throw frost::Error(Input) naming `path` when it cannot be written, or when
/// frost was built without libtiff.
void write_eer_tiff(const std::string& path, const std::vector<std::vector<unsigned char>>& streams, index_t width,
                    index_t height, const EerWriteOptions& options = {});

} // namespace frost::io
