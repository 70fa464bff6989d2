// Decoding with libpng's simplified reader (the encoder uses the simplified writer: a separate
// code path); the IHDR fields are read from the bytes themselves.
#include "frost/test/png_decode.hpp"

#include <png.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace frost::test {

namespace {
std::uint32_t big_endian(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}
} // namespace

bool png_decoder_available() { return true; }

DecodedPng decode_png(const std::vector<std::uint8_t>& bytes) {
  static const std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (bytes.size() < 33 || std::memcmp(bytes.data(), kSignature, 8) != 0 || std::memcmp(bytes.data() + 12, "IHDR", 4) != 0)
    throw std::runtime_error("not a PNG file (signature or IHDR missing)");
  DecodedPng out;
  out.bit_depth = bytes[24];
  out.colour_type = bytes[25];

  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
    throw std::runtime_error(std::string("libpng: ") + image.message);
  const bool colour = (image.format & PNG_FORMAT_FLAG_COLOR) != 0;
  image.format = colour ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
  out.width = static_cast<int>(image.width);
  out.height = static_cast<int>(image.height);
  out.channels = colour ? 3 : 1;
  if (out.width != static_cast<int>(big_endian(bytes.data() + 16)) ||
      out.height != static_cast<int>(big_endian(bytes.data() + 20))) {
    png_image_free(&image);
    throw std::runtime_error("libpng and the IHDR bytes disagree on the size");
  }
  out.pixels.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, out.pixels.data(), 0, nullptr))
    throw std::runtime_error(std::string("libpng: ") + image.message);
  return out;
}

DecodedPng decode_png_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return decode_png(bytes);
}

} // namespace frost::test
