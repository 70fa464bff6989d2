#include "frost/core/shape.hpp"

namespace frost {

std::string to_string(const Shape& s) {
  std::string t = std::to_string(s.x) + "x" + std::to_string(s.y);
  if (s.z != 1) t += "x" + std::to_string(s.z);
  if (s.n != 1) t += " (n=" + std::to_string(s.n) + ")";
  return t;
}

} // namespace frost
