#pragma once
/// @file half_grid_reduce.hpp
/// @brief Sums the folded half grids of every MPI rank on rank 0
/// (docs/reconstruct_fourier.md#mpi-and-multi-gpu-reduction): the voxels within the support
/// radius only, packed row by row into chunks of contiguous doubles, one MPI_Reduce per chunk.
#include <vector>

#include "frost/reconstruction/grid.hpp"

namespace frost::app {

/// In place: after the call rank 0 holds the sums (other ranks hold undefined values). Voxels
/// farther than `support_radius` from the centre must be zero on every rank
/// (recon::half_grid_support_radius); they are not sent. Without MPI, or with one rank, does
/// nothing. `chunk_doubles`: the most doubles per MPI_Reduce (0: 2 Mi, 16 MiB).
void reduce_to_root(std::vector<recon::HalfGrid>& grids, double support_radius, std::size_t chunk_doubles = 0);

} // namespace frost::app
