#include "frost/reconstruction/grid_symmetry.hpp"

#include <cmath>

#include "frost/core/error.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace {

/// R as a signed permutation matrix with exact 0 / +-1 entries, if it is one (within 1e-9).
bool as_signed_permutation(const geom::Mat3d& R, Rotation9<double>& out) {
  for (int r = 0; r < 3; ++r) {
    int ones = 0;
    for (int c = 0; c < 3; ++c) {
      const double v = R.m[r][c];
      if (std::abs(v) < 1e-9) {
        out.m[3 * r + c] = 0.0;
      } else if (std::abs(std::abs(v) - 1.0) < 1e-9) {
        out.m[3 * r + c] = v > 0 ? 1.0 : -1.0;
        ++ones;
      } else {
        return false;
      }
    }
    if (ones != 1) return false;
  }
  return true;
}

/// R as Rotation9: exact integers for a signed permutation (exact voxel lookups, `exact` stays
/// true), else its entries (`exact` becomes false).
Rotation9<double> as_rotation9(const geom::Mat3d& R, bool& exact) {
  Rotation9<double> out;
  if (as_signed_permutation(R, out)) return out;
  exact = false;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.m[3 * r + c] = R.m[r][c];
  return out;
}

} // namespace

SymmetryPlan plan_symmetry(const geom::SymmetryGroup& group, SymMode mode) {
  SymmetryPlan plan;
  if (group.order() <= 1) return plan;
  if (mode == SymMode::Grid) {
    for (const geom::Mat3d& R : group.elements()) plan.grid.push_back(as_rotation9(R, plan.exact));
    return plan;
  }
  // The grid subgroup S: the signed permutations of G (closed under products and inverses).
  std::vector<int> sub;
  for (int e = 0; e < group.order(); ++e) {
    Rotation9<double> r;
    if (as_signed_permutation(group[static_cast<std::size_t>(e)], r)) {
      sub.push_back(e);
      plan.grid.push_back(r);
    }
  }
  // Right cosets S c, representatives in group order (the identity first).
  std::vector<char> covered(static_cast<std::size_t>(group.order()), 0);
  std::vector<geom::Mat3d> reps;
  for (int e = 0; e < group.order(); ++e) {
    if (covered[static_cast<std::size_t>(e)]) continue;
    const geom::Mat3d& c = group[static_cast<std::size_t>(e)];
    reps.push_back(c);
    for (int s : sub) {
      const int k = group.find(group[static_cast<std::size_t>(s)] * c);
      FROST_EXPECTS(k >= 0, "the group is closed under products");
      FROST_EXPECTS(!covered[static_cast<std::size_t>(k)], "right cosets are disjoint");
      covered[static_cast<std::size_t>(k)] = 1;
    }
  }
  FROST_EXPECTS(reps.size() * sub.size() == static_cast<std::size_t>(group.order()), "|G| = |S| x cosets");
  plan.inserted = geom::SymmetryGroup(group.name() + "/S" + std::to_string(sub.size()), reps);
  if (plan.grid.size() <= 1) plan.grid.clear();
  return plan;
}

double grid_symmetry_radius_sq(const GridLayout& layout, double blob_radius) {
  const double r = layout.fx + blob_radius;
  return r * r;
}

void symmetrise_grid(HalfGrid& grid, const std::vector<Rotation9<double>>& rotations, double max_r2) {
  if (rotations.size() < 2) return;
  symmetrise_kx0_plane(grid);
  const HalfGridRef<double> in{grid.data.data(), grid.weight.data(), grid.M};
  GridValues data(grid.data.size()), weight(grid.weight.size());
  const int M = grid.M, nx = M / 2 + 1;
  const int count = static_cast<int>(rotations.size());
  // Every output voxel is written by the thread of its z plane (first touch in parallel).
#pragma omp parallel for schedule(dynamic, 1)
  for (int z = 0; z <= M; ++z)
    for (int y = 0; y <= M; ++y)
      for (int x = 0; x < nx; ++x) {
        const auto i = static_cast<std::size_t>(grid.index(x, y, z));
        double re, im, w;
        symmetrised_voxel(in, rotations.data(), count, max_r2, x, y, z, re, im, w);
        data[2 * i] = re;
        data[2 * i + 1] = im;
        weight[i] = w;
      }
  grid.data.swap(data);
  grid.weight.swap(weight);
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
