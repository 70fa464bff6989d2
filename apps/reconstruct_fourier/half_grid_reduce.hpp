#pragma once
/// @file half_grid_reduce.hpp
/// @brief Sums the folded half grids of every MPI rank on rank 0
/// (docs/reconstruct_fourier.md#mpi-and-multi-gpu-reduction): one chunked MPI_Reduce of contiguous
/// double buffers per grid, no row-by-row calls.
#include <vector>

#include "frost/reconstruction/grid.hpp"

namespace frost::app {

/// In place: after the call rank 0 holds the sums (other ranks hold undefined values).
/// Without MPI, or with one rank, does nothing.
void reduce_to_root(std::vector<recon::HalfGrid>& grids);

} // namespace frost::app
