#include "frost/alignment/settings.hpp"

#include <sstream>

#include "frost/core/error.hpp"

namespace frost::align {

std::string to_string(const AlignSettings& s) {
  std::ostringstream os;
  os << "iters " << s.iters << " subpixel " << to_string(s.subpixel) << " shift-search " << s.shift_search
     << " max-shift " << s.max_shift << " mirrors " << (s.check_mirrors ? 1 : 0);
  return os.str();
}

} // namespace frost::align
