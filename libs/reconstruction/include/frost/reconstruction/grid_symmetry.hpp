#pragma once
/// @file grid_symmetry.hpp
/// @brief Symmetry applied to the folded grids (docs/reconstruct_fourier.md#symmetry), in two uses:
///
/// * Exact split of the per-element insertion (default, `--sym_mode insert`). The elements of
///   the group that are signed permutation matrices (the "grid subgroup" S: the 222 and the
///   3-folds of T in I1/I2, all of O, the 2- and 4-folds of C4 ...) map voxels onto voxels. Every
///   image is inserted once per right coset S·c of S in G (with c), and the folded grid is then
///   summed over S by exact voxel permutation: voxel k of the element s^-1·c is voxel s·k of
///   the element c, so the result equals inserting every element (up to float rounding) at
///   |G|/|S| of the insertion work (I: 5 insertions per image instead of 60).
/// * `--sym_mode grid` (RELION's BackProjector::symmetrise): every image inserted once and the
///   grids summed over all of G with trilinear interpolation. Not exact: it interpolates the
///   grid a second time (not the default, docs/reconstruct_fourier.md#symmetry).
///
/// The folded grid stores H(k) = G(k) + conj(G(-k)) for kx > 0 and, on the kx = 0 plane after
/// symmetrise_kx0_plane, H(k) / 2; points with kx < 0 read conj(H(-k)). The symmetrised grid
///   H'(k) = sum_s H(s k),  W'(k) = sum_s W(s k)
/// is stored in the same convention. Summing over a whole (sub)group, s and s^T give the same set.
///
/// The per-voxel code is written once as FROST_HD templates over the value type: the CPU loop
/// (grid_symmetry.cpp, double) and the CUDA kernel (cuda/reconstruction, double) call it.
#include <math.h>

#include <vector>

#include "frost/core/hd.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/grid.hpp"
#include "frost/reconstruction/precision.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::recon {

/// A folded half grid as the symmetrisation reads it: x = kx in [0, M/2], y and z = k + M/2 in
/// [0, M]; data interleaved (re, im), x fastest (HalfGrid's layout).
template <class T>
struct HalfGridRef {
  const T* data = nullptr;
  const T* weight = nullptr;
  int M = 0;
};

/// Row-major 3x3 rotation as the kernels take it (9 values).
template <class T>
struct Rotation9 {
  T m[9];
};

/// @brief Trilinear interpolation of H at frequency (px, py, pz) (file comment): a point with
/// px < 0 is read at -p and its data conjugated (Friedel); corners on the kx = 0 plane count
/// twice (the plane stores H / 2); corners outside the grid count as 0. Adds into (re, im, w).
/// For integer p (signed permutations) only the corner at p has a non-zero weight. The grid's
/// storage type S may be narrower than the arithmetic type T (the CUDA finish reads float
/// grids and sums in double).
template <class T, class S>
FROST_HD inline void add_half_grid_trilinear(const HalfGridRef<S>& g, T px, T py, T pz, T& re, T& im, T& w) {
  T sign = T(1);
  if (px < T(0)) {
    px = -px;
    py = -py;
    pz = -pz;
    sign = T(-1);
  }
  const int h = g.M / 2;
  const T fx = floor(px), fy = floor(py), fz = floor(pz);
  const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy) + h, z0 = static_cast<int>(fz) + h;
  const T tx = px - fx, ty = py - fy, tz = pz - fz;
  const int nx = h + 1, side = g.M + 1;
  T sr = 0, si = 0, sw = 0;
  for (int dz = 0; dz < 2; ++dz) {
    const T wz = dz ? tz : T(1) - tz;
    const int z = z0 + dz;
    if (wz == T(0) || z < 0 || z >= side) continue;
    for (int dy = 0; dy < 2; ++dy) {
      const T wzy = wz * (dy ? ty : T(1) - ty);
      const int y = y0 + dy;
      if (wzy == T(0) || y < 0 || y >= side) continue;
      for (int dx = 0; dx < 2; ++dx) {
        const int x = x0 + dx;
        T k = wzy * (dx ? tx : T(1) - tx);
        if (k == T(0) || x >= nx) continue;
        if (x == 0) k += k; // the kx = 0 plane holds H / 2
        const long long i = (static_cast<long long>(z) * side + y) * nx + x;
        sr += k * g.data[2 * i];
        si += k * g.data[2 * i + 1];
        sw += k * g.weight[i];
      }
    }
  }
  re += sr;
  im += sign * si;
  w += sw;
}

/// @brief The symmetrised value of half-grid voxel (x, y, z): the sum over the `count`
/// rotations of H interpolated at R k, k = (x, y - M/2, z - M/2), in the storage convention (halved on
/// the kx = 0 plane). Voxels with |k|^2 > max_r2 (beyond any inserted data) get 0. Storage S,
/// arithmetic T (see add_half_grid_trilinear).
template <class T, class S>
FROST_HD inline void symmetrised_voxel(const HalfGridRef<S>& g, const Rotation9<T>* rotations, int count, T max_r2,
                                       int x, int y, int z, T& re, T& im, T& w) {
  re = im = w = T(0);
  const int h = g.M / 2;
  const T kx = T(x), ky = T(y - h), kz = T(z - h);
  if (kx * kx + ky * ky + kz * kz > max_r2) return;
  for (int e = 0; e < count; ++e) {
    const T* R = rotations[e].m;
    const T px = R[0] * kx + R[1] * ky + R[2] * kz;
    const T py = R[3] * kx + R[4] * ky + R[5] * kz;
    const T pz = R[6] * kx + R[7] * ky + R[8] * kz;
    add_half_grid_trilinear(g, px, py, pz, re, im, w);
  }
  if (x == 0) {
    re *= T(0.5);
    im *= T(0.5);
    w *= T(0.5);
  }
}

inline namespace FROST_RECON_PRECISION {

/// How a reconstruction applies its symmetry group: the elements every image is inserted with,
/// and the rotations the folded grids are then summed over (none: nothing to do).
struct SymmetryPlan {
  geom::SymmetryGroup inserted{"C1", {geom::Mat3d::identity()}};
  std::vector<Rotation9<double>> grid; ///< identity first; empty when there is nothing to sum
  bool exact = true;                   ///< grid holds signed permutations only (no interpolation)
};

/// @brief The plan for `group` (file comment): Insert splits off the grid subgroup (exact; the
/// inserted elements are right coset representatives, in group order), Grid inserts the identity
/// and sums over the whole group.
SymmetryPlan plan_symmetry(const geom::SymmetryGroup& group, SymMode mode);

/// Radius^2 beyond which no traverse space inserts data ((fx + a)^2, traverse_space.cpp), and
/// so where the symmetrisation stops.
double grid_symmetry_radius_sq(const GridLayout& layout, double blob_radius);

/// @brief Replaces `grid` by its sum over `rotations` on the CPU (OpenMP over z planes). The
/// kx = 0 plane is made Hermitian first (symmetrise_kx0_plane), as the storage convention
/// assumes. Fewer than two rotations leave the grid as it is.
void symmetrise_grid(HalfGrid& grid, const std::vector<Rotation9<double>>& rotations, double max_r2);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
