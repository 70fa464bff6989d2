#include "frost/reconstruction/settings.hpp"

#include <cmath>
#include <sstream>

#include "frost/core/error.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

GridLayout make_grid_layout(const ReconstructionSettings& s) {
  if (s.box < 2) throw_usage_error("box size " + std::to_string(s.box) + " is too small (need >= 2)");
  if (!(s.padding >= 1.0)) throw_usage_error("padding must be >= 1 (got " + std::to_string(s.padding) + ")");
  if (!(s.max_resolution > 0.0 && s.max_resolution <= 0.5))
    throw_usage_error("max resolution must be a digital frequency in (0, 0.5] (got " +
                      std::to_string(s.max_resolution) + ")");
  if (s.kernel == Kernel::Separable && !s.fast && !(s.blob.radius <= kSeparableMaxRadius))
    throw_usage_error("the separable kernel needs a radius <= 2 (got " + std::to_string(s.blob.radius) + ")");
  GridLayout g;
  g.box = s.box;
  g.padded = s.padded_size > 0 ? s.padded_size : static_cast<int>(std::lround(s.box * s.padding));
  if (g.padded < s.box)
    throw_usage_error("padded size " + std::to_string(g.padded) + " is below the box " + std::to_string(s.box));
  g.fmax = s.max_resolution;
  // Xmipp conserveRows: ceil(ceil(P fmax 2) / 2); M = 2 cr (M = P at Nyquist). The small
  // tolerance keeps P fmax 2 = integer from rounding up through float noise.
  const double twice = std::ceil(g.padded * g.fmax * 2.0 - 1e-9);
  g.cr = static_cast<int>(std::ceil(twice / 2.0));
  g.M = 2 * g.cr;
  g.fx = g.M / 2 + (s.xmipp_compat ? 0 : 1);
  g.fy = g.M;
  return g;
}

double insertion_reach(const ReconstructionSettings& s) {
  if (s.fast) return 0.0;
  return s.kernel == Kernel::Separable ? s.blob.radius * std::sqrt(3.0) : s.blob.radius;
}

double grid_reach(const ReconstructionSettings& s) { return s.fast ? s.blob.radius : insertion_reach(s); }

std::string describe(const GridLayout& g) {
  std::ostringstream os;
  os << "N " << g.box << ", P " << g.padded << ", M " << g.M << ", sample " << g.fx << "x" << g.fy
     << ", cube " << g.side() << "^3";
  return os.str();
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
