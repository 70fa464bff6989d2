#include "frost/reconstruction/traverse_space.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

TraverseSpace make_traverse_space(const geom::Mat3d& a_sl, const GridLayout& layout, double b,
                                  int projection_index, Real weight) {
  using geom::Vec3d;
  TraverseSpace ts;
  const double half = 0.5 * layout.M;
  const double x0 = -b, x1 = layout.fx + b;
  const double y0 = -(0.5 * layout.fy + b), y1 = 0.5 * layout.fy + b;
  // Step 1-3: the sample box's corners in grid coordinates, their AABB clipped to the grid.
  // The running extrema start at +-infinity (Xmipp's numeric_limits<float>::min() is a defect).
  double lo[3] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                  std::numeric_limits<double>::infinity()};
  double hi[3] = {-lo[0], -lo[1], -lo[2]};
  for (double cx : {x0, x1})
    for (double cy : {y0, y1})
      for (double cz : {-b, b}) {
        const Vec3d p = a_sl * Vec3d{cx, cy, cz};
        for (int d = 0; d < 3; ++d) {
          lo[d] = std::min(lo[d], p[d] + half);
          hi[d] = std::max(hi[d], p[d] + half);
        }
      }
  auto clip = [&](double v) { return static_cast<int>(std::clamp(v, 0.0, double(layout.M))); };
  ts.min_x = clip(std::floor(lo[0]));
  ts.min_y = clip(std::floor(lo[1]));
  ts.min_z = clip(std::floor(lo[2]));
  ts.max_x = clip(std::ceil(hi[0]));
  ts.max_y = clip(std::ceil(hi[1]));
  ts.max_z = clip(std::ceil(hi[2]));
  ts.max_distance_sqr = static_cast<Real>((layout.fx + b) * (layout.fx + b));
  // Step 4: the two planes bounding the slab of half-width b.
  const Vec3d centre{half, half, half};
  ts.bottom_origin = (a_sl * Vec3d{x1, y0, b} + centre).cast<Real>();
  ts.top_origin = (a_sl * Vec3d{x1, y0, -b} + centre).cast<Real>();
  const Vec3d n = a_sl * Vec3d{0, 0, 1};
  ts.unit_normal = n.cast<Real>();
  // Step 5: iterate over the plane the slice projects onto with the largest area.
  const double ax = std::abs(n.x), ay = std::abs(n.y), az = std::abs(n.z);
  if (ax >= ay && ax >= az)
    ts.dir = kPlaneYZ;
  else if (ay >= az)
    ts.dir = kPlaneXZ;
  else
    ts.dir = kPlaneXY;
  ts.projection_index = projection_index;
  ts.transform_inv = a_sl.transposed().cast<Real>();
  ts.weight = weight;
  return ts;
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
