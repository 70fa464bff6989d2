#include "frost/alignment/settings.hpp"

#include <sstream>

#include "frost/core/error.hpp"

namespace frost::align {

std::string to_string(Subpixel s) {
  switch (s) {
    case Subpixel::None: return "none";
    case Subpixel::Parabolic: return "parabolic";
    case Subpixel::Centroid3: return "centroid3";
  }
  return "?";
}

Subpixel parse_subpixel(const std::string& text) {
  if (text == "none") return Subpixel::None;
  if (text == "parabolic") return Subpixel::Parabolic;
  if (text == "centroid3") return Subpixel::Centroid3;
  throw_usage_error("--subpixel: unknown value '" + text + "' (none, parabolic, centroid3)");
}

std::string to_string(const AlignSettings& s) {
  std::ostringstream os;
  os << "iters " << s.iters << " subpixel " << to_string(s.subpixel) << " shift-search " << s.shift_search
     << " max-shift " << s.max_shift << " mirrors " << (s.check_mirrors ? 1 : 0);
  return os.str();
}

} // namespace frost::align
