#pragma once
/// @file tiff_reader.hpp
/// @brief Multi-directory TIFF movies, one frame per directory (docs/formats.md#tiff-movies). Needs libtiff.
#include <memory>
#include <string>

#include "frost/io/image_source.hpp"

namespace frost::io {

/// @brief True when frost was built with libtiff.
bool tiff_supported();

/// @brief A TIFF file opened for frame-by-frame reading.
///
/// All directories must agree in width, height, bits per sample and sample format (else an
/// Input error). Samples: 8/16/32-bit unsigned or signed integers and 32-bit float; a missing
/// SampleFormat means unsigned, except 32-bit which means float. Any compression libtiff decodes;
/// strips and tiles. Rows are flipped on read unless ReadOptions::tiff_flip_y is false. IMOD
/// 4-bit packed files (stored width half of the true width) are unpacked low nibble first when
/// ReadOptions::tiff_4bit says so or, on Auto, when the stored size is one of the camera sizes
/// of docs/formats.md#tiff-movies. Frames may be read from several threads at once (one libtiff handle each).
/// Without libtiff the constructor throws an Input error "built without TIFF support".
class TiffReader final : public ImageSource {
public:
  explicit TiffReader(const std::string& path, const ReadOptions& options = {});
  ~TiffReader() override;

  const ImageInfo& info() const override;
  void read(index_t index, float* out) const override;
  using ImageSource::read;

  /// @brief True when frames are IMOD 4-bit packed (two pixels per stored byte).
  bool four_bit_packed() const;
  /// @brief True when rows are flipped on read.
  bool flips_rows() const;

  /// @brief How frames are stored, for callers that decode the samples themselves (a GPU).
  struct Storage {
    index_t row_bytes = 0;      ///< stored bytes of one row (4-bit packed: half the width)
    index_t rows_per_strip = 0; ///< rows compressed together; 0 when the file is tiled
  };
  Storage storage() const;
  /// @brief Rows [y0, y0 + rows) of frame `index` as stored samples (host byte order, 4-bit
  /// still packed), in the order read() gives them (flipped unless tiff_flip_y is false), into
  /// `dst` (rows x storage().row_bytes bytes). Only the strips holding those rows are decoded, so
  /// several threads can share one frame. Strips only: Runtime error for a tiled file.
  void read_stored_rows(index_t index, index_t y0, index_t rows, unsigned char* dst) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// @brief True when a stored 8-bit frame of `width` x `height` is one of the IMOD 4-bit packed
/// K2/K3 super-resolution layouts of docs/formats.md#tiff-movies (stored width = half the true width).
inline bool is_imod_4bit_camera_size(index_t width, index_t height) {
  static constexpr index_t kSizes[][2] = {{5760, 8184}, {4092, 11520}, {3710, 7676}, {3838, 7420}};
  for (const auto& s : kSizes)
    if ((width == s[0] && height == s[1]) || (width == s[1] && height == s[0])) return true;
  return false;
}

} // namespace frost::io
