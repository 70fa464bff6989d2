#pragma once
/// @file traverse_space.hpp
/// @brief The per-(image, symmetry element) traverse space of the gather insertion
/// (docs/reconstruct_fourier.md#gather-and-the-traverse-space): which voxels a sample slice can
/// touch and how to map a voxel back onto the slice. Plain data, copied to the GPU as it is.
#include "frost/reconstruction/precision.hpp"
#include "frost/core/hd.hpp"
#include "frost/geometry/mat3.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// Iteration plane of a traverse space: the two axes a thread (or loop) walks over; the third
/// axis is the column along which the voxels of the slab are visited.
enum PlaneDir : int {
  kPlaneXY = 0, ///< columns along z
  kPlaneXZ = 1, ///< columns along y
  kPlaneYZ = 2  ///< columns along x
};

struct TraverseSpace {
  int min_x = 0, min_y = 0, min_z = 0; ///< voxel AABB, inclusive, within [0, M]
  int max_x = 0, max_y = 0, max_z = 0;
  Real max_distance_sqr = 0;           ///< (fx + b)^2: voxels farther from the centre are skipped
  int dir = kPlaneXY;                  ///< PlaneDir
  geom::Vec3<Real> unit_normal;        ///< A_SL (0, 0, 1)
  geom::Vec3<Real> bottom_origin;      ///< a point on the plane at +b along the normal (grid coords)
  geom::Vec3<Real> top_origin;         ///< a point on the plane at -b along the normal
  int projection_index = 0;            ///< slot of the sample in its batch
  geom::Mat3<Real> transform_inv;      ///< A_SL^-1 = A_SL^T: grid frequency -> sample (u, v, w)
  Real weight = 1;                     ///< per-image weight w

  /// Number of columns of the iteration plane (its two AABB extents).
  FROST_HD int columns_a() const {
    return dir == kPlaneYZ ? max_y - min_y + 1 : max_x - min_x + 1;
  }
  FROST_HD int columns_b() const {
    return dir == kPlaneXY ? max_y - min_y + 1 : max_z - min_z + 1;
  }
};

/// @brief Builds the traverse space of a sample inserted with the transform `a_sl` (= R A^T, a
/// sample frequency (kx, ky, 0) lands at a_sl (kx, ky, 0) in the grid), for kernel radius `b`
/// (0 in fast mode). Steps 1-5 of docs/reconstruct_fourier.md#gather-and-the-traverse-space; the
/// inverse is the transpose (a_sl is orthogonal).
TraverseSpace make_traverse_space(const geom::Mat3d& a_sl, const GridLayout& layout, double b,
                                  int projection_index, Real weight);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
