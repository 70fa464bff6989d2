// Stand-in for png.cpp in builds without libpng: asking for a PNG is a clear usage error.
#include "frost/core/error.hpp"
#include "frost/picture/png.hpp"

namespace frost::picture {

namespace {
[[noreturn]] void no_png(const std::string& what) {
  throw Error(ExitCode::Usage, what + "frost was built without PNG support (libpng not found at configure time; "
                                      "install libpng-dev and configure again)");
}
} // namespace

bool png_supported() { return false; }

std::vector<std::uint8_t> encode_png(const Raster&) { no_png(""); }

void write_png(const std::string& path, const Raster&) { no_png(path + ": "); }

} // namespace frost::picture
