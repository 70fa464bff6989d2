#include "frost/motion/reference_frame.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "frost/core/error.hpp"

namespace frost::motion {

int choose_reference(const std::vector<Vec2>& d, ReferenceRule rule, int index) {
  const int n = static_cast<int>(d.size());
  if (n == 0) throw_usage_error("no frames to choose a reference from");
  switch (rule) {
  case ReferenceRule::First: return 0;
  case ReferenceRule::Middle: return n / 2;
  case ReferenceRule::Index:
    if (index < 0 || index >= n)
      throw_usage_error("--reference " + std::to_string(index) + " is outside the aligned frames 0.." +
                        std::to_string(n - 1));
    return index;
  case ReferenceRule::Minimax: break;
  }
  // Euclidean distance (Xmipp's findReferenceImage looks at x only).
  int best = 0;
  double best_worst = std::numeric_limits<double>::infinity();
  for (int r = 0; r < n; ++r) {
    double worst = 0;
    for (int t = 0; t < n; ++t) worst = std::max(worst, std::hypot(d[t].x - d[r].x, d[t].y - d[r].y));
    if (worst < best_worst) {
      best_worst = worst;
      best = r;
    }
  }
  return best;
}

std::vector<Vec2> shifts_to_apply(const std::vector<Vec2>& d, int reference) {
  FROST_EXPECTS(reference >= 0 && reference < static_cast<int>(d.size()), "reference outside the frames");
  std::vector<Vec2> s(d.size());
  const Vec2 r = d[static_cast<std::size_t>(reference)];
  for (std::size_t t = 0; t < d.size(); ++t) s[t] = {-(d[t].x - r.x), -(d[t].y - r.y)};
  return s;
}

} // namespace frost::motion
