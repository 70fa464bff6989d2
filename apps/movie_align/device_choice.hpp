#pragma once
// Which device one frost_movie_align process uses (docs/movie_align.md#batch-mode-mpi-and-device-choice): one
// GPU per process, taken by the node-local MPI rank; the default `auto` falls back to the CPU
// when no CUDA device is visible or frost was built without CUDA.
#include <string>

#include "frost/core/device.hpp"

namespace frost::movie_align {

/// This process's rank among the launcher's processes on this node: OMPI_COMM_WORLD_LOCAL_RANK
/// (Open MPI), MPI_LOCALRANKID (MPICH, Intel MPI), SLURM_LOCALID (srun); else `global_rank`
/// (cli::Program::launcher_rank(): one node assumed, as scripts/cluster/movie_align.mpirun.sh
/// does; 0 outside a launcher).
int local_launcher_rank(int global_rank);

struct DeviceChoice {
  int gpu = -1;     ///< CUDA device id, -1 = the CPU
  std::string why;  ///< for the log: what was chosen and from what
};

/// @brief One device out of `selection` (the parsed --device, `requested` as given): the CPU, or
/// GPU selection.gpus[local_rank mod count]. `auto` has already become every visible GPU, or
/// the CPU when there is none (DeviceSelection::parse).
DeviceChoice choose_device(const DeviceSelection& selection, const std::string& requested, int local_rank);

} // namespace frost::movie_align
