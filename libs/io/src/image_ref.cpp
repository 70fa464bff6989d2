#include "frost/io/image_ref.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "frost/core/error.hpp"

namespace frost::io {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool known_type(const std::string& t) {
  static const char* const kTypes[] = {"mrc", "mrcs", "map", "st",  "tif", "tiff",
                                       "gain", "hdf", "h5", "spi", "stk", "xmp"};
  return std::any_of(std::begin(kTypes), std::end(kTypes), [&](const char* k) { return t == k; });
}

} // namespace

ImageRef parse_image_ref(const std::string& text) {
  ImageRef ref;
  std::string rest = text;
  const auto at = rest.find('@');
  if (at != std::string::npos && at > 0 &&
      std::all_of(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(at),
                  [](unsigned char c) { return std::isdigit(c) != 0; })) {
    const std::string digits = rest.substr(0, at);
    rest = rest.substr(at + 1);
    if (digits.size() > 18) throw_input_error(rest, "image number " + digits + " is out of range");
    const index_t n = std::stoll(digits);
    if (n < 1) throw_input_error(rest, "image numbers in N@file start at 1 (got " + digits + ")");
    ref.index = n - 1;
  }
  // `file:type` (Xmipp syntax), only for types frost reads, so that a colon elsewhere in a
  // name is left alone.
  const auto colon = rest.rfind(':');
  if (colon != std::string::npos && colon > 0 && rest.find('/', colon) == std::string::npos) {
    const std::string type = lower(rest.substr(colon + 1));
    if (known_type(type)) {
      ref.type = type;
      rest = rest.substr(0, colon);
    }
  }
  if (rest.empty()) throw_input_error(text, "no file name in the image address");
  ref.path = rest;
  return ref;
}

std::string file_extension(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const auto dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0) return {};
  return lower(name.substr(dot + 1));
}

std::string file_stem(const std::string& path) {
  const auto slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const auto dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

FileFormat format_of(const ImageRef& ref) {
  const std::string t = ref.type.empty() ? file_extension(ref.path) : ref.type;
  if (t == "mrc" || t == "mrcs" || t == "map" || t == "st") return FileFormat::Mrc;
  if (t == "tif" || t == "tiff" || t == "gain") return FileFormat::Tiff;
  if (t == "hdf" || t == "h5") return FileFormat::EmanHdf;
  if (t == "spi" || t == "stk" || t == "xmp") return FileFormat::Spider;
  throw_input_error(ref.path, (t.empty() ? std::string("no file extension") : "unsupported extension '." + t + "'") +
                                  ": frost reads .mrc .mrcs .map .st (MRC), .tif .tiff .gain (TIFF), .hdf .h5 (EMAN2) and "
                                  ".spi .stk .xmp (SPIDER)");
}

std::string make_image_address(index_t index0, const std::string& path) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%06lld", static_cast<long long>(index0 + 1));
  return std::string(digits) + "@" + path;
}

} // namespace frost::io
