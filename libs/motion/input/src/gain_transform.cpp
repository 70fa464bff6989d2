#include "frost/motion/gain_transform.hpp"

namespace frost::motion {

std::string GainTransform::describe() const {
  return "--gain-rot " + std::to_string(rotation) + " --gain-flip " + std::to_string(flip);
}

void validate(const GainTransform& t) {
  if (t.rotation < 0 || t.rotation > 3)
    throw_usage_error("--gain-rot must be 0, 1, 2 or 3 (multiples of 90 degrees), got " + std::to_string(t.rotation));
  if (t.flip < 0 || t.flip > 2)
    throw_usage_error("--gain-flip must be 0 (none), 1 (upside down) or 2 (left-right), got " + std::to_string(t.flip));
}

} // namespace frost::motion
