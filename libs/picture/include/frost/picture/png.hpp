#pragma once
/// @file png.hpp
/// @brief PNG encoding through libpng (optional at configure time, FROST_USE_PNG).
#include <cstdint>
#include <string>
#include <vector>

#include "frost/picture/raster.hpp"

namespace frost::picture {

/// True when frost was built with libpng.
bool png_supported();

/// @brief The PNG file of `raster`: 8-bit grey (colour type 0) or 8-bit RGB (colour type 2),
/// rows from the top.
/// @throw frost::Error(Usage) when frost was built without PNG support; frost::Error(Runtime)
/// for an empty or inconsistent raster or a libpng failure.
std::vector<std::uint8_t> encode_png(const Raster& raster);

/// @brief encode_png written atomically to `path` (a temporary file renamed when complete).
/// @throw as encode_png, the message naming `path`; frost::Error(Input) when the file cannot be
/// written.
void write_png(const std::string& path, const Raster& raster);

} // namespace frost::picture
