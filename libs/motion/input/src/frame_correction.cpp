#include "frost/motion/frame_correction.hpp"

namespace frost::motion {

void correct_frame(float* frame, index_t pixels, const float* dark, const float* gain) {
  if (dark && gain) {
    for (index_t i = 0; i < pixels; ++i) frame[i] = (frame[i] - dark[i]) * gain[i];
  } else if (gain) {
    for (index_t i = 0; i < pixels; ++i) frame[i] *= gain[i];
  } else if (dark) {
    for (index_t i = 0; i < pixels; ++i) frame[i] -= dark[i];
  }
}

} // namespace frost::motion
