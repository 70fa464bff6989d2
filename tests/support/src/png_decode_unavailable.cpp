// Builds without libpng: the PNG tests skip (png_decoder_available() is false).
#include <stdexcept>

#include "frost/test/png_decode.hpp"

namespace frost::test {

bool png_decoder_available() { return false; }

DecodedPng decode_png(const std::vector<std::uint8_t>&) {
  throw std::runtime_error("frost was built without libpng: cannot decode PNG files");
}

DecodedPng decode_png_file(const std::string& path) {
  throw std::runtime_error("frost was built without libpng: cannot decode " + path);
}

} // namespace frost::test
