#pragma once
/// @file grid_support.hpp
/// @brief The voxels of a folded half grid that can hold data, packed into chunks of contiguous
/// doubles: what the MPI reduction sends (docs/reconstruct_fourier.md#mpi-and-multi-gpu-reduction).
#include <cstddef>
#include <vector>

#include "frost/reconstruction/grid.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// Radius (voxels from the centre) beyond which every voxel of an accumulated half grid is zero,
/// in every mode: the gather stops at fx + a, fast mode puts samples within fx and its
/// convolution adds a, the symmetrisation stops at fx + a; one voxel of margin.
double half_grid_support_radius(const GridLayout& layout, double blob_radius);

/// Rows [first_row, end_row) of a half grid (row = y + (M + 1) z), restricted to the voxels
/// within the support radius: 3 doubles per voxel (re, im, weight), row after row.
struct SupportChunk {
  int first_row = 0, end_row = 0;
  std::size_t doubles = 0;
};

/// The grid's support in chunks of whole rows of at most `max_doubles` doubles each (a row
/// longer than that makes a chunk of its own). Every rank of a reduction computes the same list.
std::vector<SupportChunk> support_chunks(int M, double radius, std::size_t max_doubles);

/// Copies the chunk's voxels of `grid` into `out` (chunk.doubles values).
void pack_support(const HalfGrid& grid, double radius, const SupportChunk& chunk, double* out);
/// Writes `in` (chunk.doubles values, as pack_support lays them out) back into `grid`.
void unpack_support(HalfGrid& grid, double radius, const SupportChunk& chunk, const double* in);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
