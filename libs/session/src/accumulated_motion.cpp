#include "frost/session/accumulated_motion.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "frost/core/error.hpp"

namespace frost::session {

AccumulatedMotion accumulated_motion(const std::vector<double>& x_px, const std::vector<double>& y_px,
                                     double pixel_size_A, double dose_per_frame, double pre_exposure,
                                     double cutoff_e_per_A2) {
  FROST_EXPECTS(x_px.size() == y_px.size(), "accumulated_motion: x and y shifts differ in length");
  const double cutoff_frame = dose_per_frame > 0 ? (cutoff_e_per_A2 - pre_exposure) / dose_per_frame
                                                 : std::numeric_limits<double>::infinity();
  AccumulatedMotion m;
  for (std::size_t f = 1; f < x_px.size(); ++f) {
    const double d = std::hypot(x_px[f] - x_px[f - 1], y_px[f] - y_px[f - 1]) * pixel_size_A;
    m.total += d;
    // RELION numbers frames from 1: the step from frame f to f+1 (0-based f-1 to f) lands in frame f+1.
    if (static_cast<double>(f + 1) <= cutoff_frame) m.early += d;
    else m.late += d;
    m.max_frame_shift = std::max(m.max_frame_shift, d);
  }
  return m;
}

} // namespace frost::session
