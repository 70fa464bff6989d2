#pragma once
/// @file image_set.hpp
/// @brief The experimental images and the references of frost_align_significant
/// (docs/align_significant.md#inputs): metadata rows, their images, checks and the odd-size crop.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/geometry/euler.hpp"
#include "frost/metadata/block.hpp"

namespace frost::app {

/// Where the pixel size of a table came from.
enum class PixelSource { None, File, Option };

/// The enabled rows of one metadata file (Xmipp labels; RELION STAR is converted on read).
struct ImageTable {
  std::string path;              ///< the metadata file as given (`block@file` allowed)
  std::string file;              ///< the metadata file itself
  meta::Block rows;              ///< enabled rows only, all labels kept
  std::vector<std::string> images; ///< `image` of each row, data paths resolved
  double pixel_size = 0;         ///< [Å]; 0 when neither the file nor --pixel-size gives one
  PixelSource pixel_source = PixelSource::None;
  std::optional<meta::Block> optics;     ///< RELION 3.1+ data_optics, as read
  std::vector<std::int64_t> optics_box;  ///< data_optics rlnImageSize of each row (empty: none)
};

/// @brief Reads `spec`: `block@file`, else the particle table of a RELION 3.1+ file (the first
/// table that is not data_optics), else the first block. Drops rows with enabled = −1 and
/// converts RELION STAR (rlnImageName, 3.0 and 3.1+) to Xmipp labels. The pixel size is
/// `pixel_option` when positive, else the table's (meta::particle_pixel_size()).
/// frost::Error(Input) naming the file for a missing `image` label, malformed values, differing
/// pixel sizes, or Å origins without a pixel size; an empty table is returned as is (the caller
/// decides).
ImageTable read_image_table(const std::string& spec, double pixel_option);

/// @brief Loads rows [first, first + count) of `table` into a stack. Every image must be square
/// and of size `box` (before cropping; 0 = take the first image's size); odd sizes are cropped to
/// the even size by dropping the last column and row (Xmipp parity, item 3 of
/// docs/align_significant.md#checks-and-normalisation); a NaN or Inf
/// pixel, a norm above max_image_norm(), and a size other than the row's data_optics
/// rlnImageSize are input errors. Errors name the metadata file, the row and the image file.
Image<float> load_images(const ImageTable& table, std::size_t first, std::size_t count, int box);

/// @brief The largest image norm sqrt(Σ pixel²) the single-precision alignment of `even` px
/// images can take: FFT values and correlation products stay below X²·‖image‖·‖reference‖, so
/// with both norms below this bound nothing overflows (with a margin of 16).
double max_image_norm(int even);

/// @brief Size of the first image of `table` (x, y), for the size checks before loading.
Shape first_image_shape(const ImageTable& table);

/// Reference directions (rot, tilt, psi) and `ref` ids of a reference table
/// (docs/align_significant.md#images-and-references).
struct ReferenceInfo {
  std::vector<geom::EulerAngles> angles;
  std::vector<std::int64_t> ids;
};
/// @brief angleRot/angleTilt (0 with a warning when absent), anglePsi (0 when absent), `ref`
/// (required: frost::Error(Input) naming the file).
ReferenceInfo read_reference_info(const ImageTable& table);

} // namespace frost::app
