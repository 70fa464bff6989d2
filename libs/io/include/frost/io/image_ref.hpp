#pragma once
/// @file image_ref.hpp
/// @brief Parsing of image addresses: `N@file`, `file.mrc:mrcs`
/// (docs/formats.md#image-addresses-and-file-types and #stacks-volumes-and-volume-stacks).
#include <string>

#include "frost/core/shape.hpp"
#include "frost/io/image_info.hpp"

namespace frost::io {

/// @brief An image address split into its parts.
struct ImageRef {
  std::string path;    ///< the file name as it is on disk
  index_t index = -1;  ///< 0-based item from `N@` (N is 1-based, zero padding allowed); -1 = none
  std::string type;    ///< lower-case type forced with `:type` (`mrcs`, `mrc`, `tif`, ...), or ""

  bool has_index() const { return index >= 0; }
};

/// @brief Splits `[N@]file[:type]`. `0@file` is an Input error; a prefix that is not all digits
/// is part of the file name; `:type` is recognised only for the types frost reads.
ImageRef parse_image_ref(const std::string& text);

/// @brief Lower-case extension without the dot ("" when none), taken from the last path component.
std::string file_extension(const std::string& path);

/// @brief The last path component without its extension (`a/b/m.mrcs` → `m`; a leading dot is
/// part of the name, as for file_extension()).
std::string file_stem(const std::string& path);

/// @brief Format chosen by the forced type or else the extension: `.mrc .mrcs .map .st` MRC,
/// `.tif .tiff .gain` TIFF, `.hdf .h5` EMAN2 HDF5, `.spi .stk .xmp` SPIDER. Anything else is an
/// Input error naming the file.
FileFormat format_of(const ImageRef& ref);

/// @brief `N@file` with N written with 6 digits, as frost writes image names
/// (docs/formats.md#image-addresses-and-file-types).
std::string make_image_address(index_t index0, const std::string& path);

} // namespace frost::io
