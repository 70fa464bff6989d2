#pragma once
/// @file image_io.hpp
/// @brief One entry point for every image format: the reader is chosen by the extension.
///
/// `.mrc .mrcs .map .st` (and `file:mrcs`, `file:mrc`) are MRC, `.tif .tiff .gain` TIFF,
/// `.hdf .h5` EMAN2 HDF5, `.spi .stk .xmp` SPIDER. Any other extension is an Input error naming
/// the file.
#include <memory>
#include <string>

#include "frost/core/image.hpp"
#include "frost/io/image_info.hpp"
#include "frost/io/image_source.hpp"
#include "frost/io/mrc_writer.hpp"

namespace frost::io {

/// @brief Data read from a file and the facts about that file (info.shape describes the whole
/// file; image.shape() what was loaded).
struct LoadedImage {
  Image<float> image;
  ImageInfo info;
};

/// @brief Opens a file for streaming (`path[:type]`, no `N@`).
std::unique_ptr<ImageSource> open_image_source(const std::string& path, const ReadOptions& options = {});

/// @brief One item: `N@file` (1-based N) or a file holding exactly one image or volume.
/// `N@file.mrc` is read as a stack (with a warning that RELION needs `.mrcs`).
LoadedImage read_image(const std::string& address, const ReadOptions& options = {});

/// @brief Every item of a file, read as a stack (Expect::Stack unless options say otherwise):
/// {x, y, 1, n} for images, {x, y, z, n} for volume stacks.
LoadedImage read_stack(const std::string& path, const ReadOptions& options = {});

/// @brief A single volume (Expect::Volume); a file holding several items is an Input error.
LoadedImage read_volume(const std::string& path, const ReadOptions& options = {});

/// @brief Number of items, reading the file as a stack unless options say otherwise.
index_t image_count(const std::string& path, const ReadOptions& options = {});

/// @brief Facts about a file without reading its data.
ImageInfo read_info(const std::string& path, const ReadOptions& options = {});

/// @brief Writes MRC, or a SPIDER stack for `.stk` / `.spi` (write_spider_stack: always float32,
/// a stack even for one image; `options` other than a volume `content`, which is an Input error,
/// are ignored there because frost's SPIDER headers do not carry them). Other extensions
/// (including `.xmp`, a single SPIDER image) are an Input error.
void write_image(const std::string& path, View<const float> data, const MrcWriteOptions& options = {});

} // namespace frost::io
