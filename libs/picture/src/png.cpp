// PNG encoding with libpng's simplified API (libpng >= 1.6): no setjmp/longjmp crosses C++ frames.
#include "frost/picture/png.hpp"

#include <png.h>

#include <cstring>

#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"

namespace frost::picture {

namespace {

void check_raster(const Raster& r) {
  if (r.width <= 0 || r.height <= 0 || (r.channels != 1 && r.channels != 3) ||
      r.pixels.size() != static_cast<std::size_t>(r.width) * static_cast<std::size_t>(r.height) *
                             static_cast<std::size_t>(r.channels))
    FROST_THROW(ExitCode::Runtime, "PNG encoder: raster of " + std::to_string(r.width) + "x" +
                                       std::to_string(r.height) + "x" + std::to_string(r.channels) + " with " +
                                       std::to_string(r.pixels.size()) + " samples");
}

} // namespace

bool png_supported() { return true; }

std::vector<std::uint8_t> encode_png(const Raster& raster) {
  check_raster(raster);
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(raster.width);
  image.height = static_cast<png_uint_32>(raster.height);
  image.format = raster.channels == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
  const png_int_32 stride = raster.width * raster.channels;
  // First call: the size; second: the bytes.
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&image, nullptr, &size, 0, raster.pixels.data(), stride, nullptr) || size == 0) {
    const std::string why = image.message;
    png_image_free(&image);
    FROST_THROW(ExitCode::Runtime, "libpng could not encode the picture: " + why);
  }
  std::vector<std::uint8_t> bytes(size);
  if (!png_image_write_to_memory(&image, bytes.data(), &size, 0, raster.pixels.data(), stride, nullptr)) {
    const std::string why = image.message;
    png_image_free(&image);
    FROST_THROW(ExitCode::Runtime, "libpng could not encode the picture: " + why);
  }
  bytes.resize(size);
  return bytes;
}

void write_png(const std::string& path, const Raster& raster) {
  std::vector<std::uint8_t> bytes;
  try {
    bytes = encode_png(raster);
  } catch (const Error& e) {
    throw Error(e.code(), path + ": " + e.what());
  }
  AtomicFile file(path);
  file.write(bytes.data(), bytes.size());
  file.commit();
}

} // namespace frost::picture
