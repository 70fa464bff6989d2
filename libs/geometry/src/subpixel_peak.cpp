#include "frost/geometry/subpixel_peak.hpp"

#include <cctype>

#include "frost/core/error.hpp"

namespace frost::geom {

std::string to_string(SubpixelMethod method) {
  switch (method) {
  case SubpixelMethod::None: return "none";
  case SubpixelMethod::Parabolic: return "parabolic";
  case SubpixelMethod::Gauss3: return "gauss3";
  case SubpixelMethod::Centroid3: return "centroid3";
  }
  return "?";
}

SubpixelMethod parse_subpixel(const std::string& text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (SubpixelMethod m :
       {SubpixelMethod::None, SubpixelMethod::Parabolic, SubpixelMethod::Gauss3, SubpixelMethod::Centroid3})
    if (t == to_string(m)) return m;
  throw_usage_error("--subpixel: unknown value '" + text + "' (none, parabolic, gauss3, centroid3)");
}

} // namespace frost::geom
