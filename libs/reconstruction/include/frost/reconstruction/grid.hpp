#pragma once
/// @file grid.hpp
/// @brief Accumulation grids: the full centred cube G (complex) + W (weights) the insertion
/// writes, and the folded half grid (kx >= 0) that is reduced across devices and ranks and then
/// finalised (docs/reconstruct_fourier.md#grid-layout and #finalisation steps 1-3).
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "frost/reconstruction/precision.hpp"
#include "frost/core/image.hpp"
#include "frost/fft/spec.hpp"
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/fold_math.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// (M+1)^3 voxels, index (x, y, z) = k + M/2, x fastest.
struct FullGrid {
  Image<RealComplex> data;
  Image<Real> weight;
  FullGrid() = default;
  explicit FullGrid(const GridLayout& layout);
  int side() const { return static_cast<int>(data.shape().x); }
  /// Adds another grid of the same size voxel by voxel.
  FullGrid& operator+=(const FullGrid& other);
  /// Sets every voxel and weight to zero (by all threads).
  void clear();
};

/// Folded grid: x = kx in [0, M/2] (M/2+1 columns), y and z = k + M/2 in [0, M].
/// Kept in double so sums over devices and ranks do not depend on their number beyond the
/// rounding of each float partial (docs/reconstruct_fourier.md#mpi-and-multi-gpu-reduction).
/// Allocator whose value-less construct() leaves doubles uninitialised, so a multi-GB grid can
/// be zeroed by all threads instead of one (std::vector(n) would zero it serially).
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using GridValues = std::vector<double, DefaultInitAllocator<double>>;

struct HalfGrid {
  int M = 0;
  GridValues data;   ///< interleaved re, im; 2 * half_voxels
  GridValues weight; ///< half_voxels
  HalfGrid() = default;
  explicit HalfGrid(const GridLayout& layout);
  std::int64_t voxels() const { return static_cast<std::int64_t>(weight.size()); }
  std::int64_t index(int x, int y, int z) const {
    return (std::int64_t(z) * (M + 1) + y) * (M / 2 + 1) + x;
  }
  HalfGrid& operator+=(const HalfGrid& other);
};

/// The taps of the fast-mode convolution (docs/reconstruct_fourier.md#fast-mode): every integer offset with d
/// <= a, dz outermost and dx innermost, weight table.nearest(d^2). Shared by the host and CUDA convolutions.
std::vector<BlobTap> blob_convolution_taps(const BlobTable& table);

/// @brief Fast mode (docs/reconstruct_fourier.md#fast-mode): convolves G and W of the full cube with
/// the blob over the integer offsets d <= a (weights table.nearest(d^2)), in place. frost convolves
/// before the fold. Per voxel: recon::convolve_voxel (fold_math.hpp) over blob_convolution_taps().
void convolve_with_blob(FullGrid& grid, const BlobTable& table);

/// @brief Friedel fold (step 2 of docs/reconstruct_fourier.md#finalisation): adds conj(G[v]) and
/// W[v] of every voxel with kx < 0 to -v and keeps kx >= 0; then (step 3) makes the plane kx = 0
/// Hermitian. Adds into `out` (which must match the layout), so several cubes can be folded into
/// one half grid. Per output voxel: recon::fold_voxel (fold_math.hpp) in double.
void fold_into(const FullGrid& grid, HalfGrid& out);

/// Fold into a new half grid.
HalfGrid fold(const FullGrid& grid, const GridLayout& layout);

/// Makes the kx = 0 plane of a half grid Hermitian: each pair (k, -k) takes the average of G[k]
/// and conj(G[-k]), and of the weights (step 3 of docs/reconstruct_fourier.md#finalisation).
/// fold_into leaves this to the caller so that summed partial grids are symmetrised once.
void symmetrise_kx0_plane(HalfGrid& grid);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
