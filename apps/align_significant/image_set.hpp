#pragma once
/// @file image_set.hpp
/// @brief The experimental images and the references of frost_align_significant
/// (docs/align_significant.md#inputs): metadata rows, their images, checks and the odd-size crop.
#include <cstddef>
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/geometry/euler.hpp"
#include "frost/metadata/block.hpp"

namespace frost::app {

/// The enabled rows of one metadata file (Xmipp labels; RELION STAR is converted on read).
struct ImageTable {
  std::string path;              ///< the metadata file as given (`block@file` allowed)
  meta::Block rows;              ///< enabled rows only, all labels kept
  std::vector<std::string> images; ///< `image` of each row, data paths resolved
};

/// @brief Reads `spec`, drops rows with enabled = −1, converts RELION STAR (rlnImageName) to
/// Xmipp labels with `pixel_size`. frost::Error(Input) naming the file for a missing `image`
/// label or malformed values; an empty table is returned as is (the caller decides).
ImageTable read_image_table(const std::string& spec, double pixel_size);

/// @brief Loads rows [first, first + count) of `table` into a stack. Every image must be square
/// and of size `box` (before cropping; 0 = take the first image's size); odd sizes are cropped to
/// the even size by dropping the last column and row (Xmipp parity, item 3 of
/// docs/align_significant.md#checks-and-normalisation); a NaN or Inf pixel is an input error.
/// Errors name the metadata file, the row and the image file.
Image<float> load_images(const ImageTable& table, std::size_t first, std::size_t count, int box);

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
