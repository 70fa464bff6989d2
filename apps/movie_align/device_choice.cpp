#include "device_choice.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace frost::movie_align {

int local_launcher_rank(int global_rank) {
  for (const char* var : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char* v = std::getenv(var)) return std::max(0, std::atoi(v));
  return std::max(0, global_rank);
}

DeviceChoice choose_device(const DeviceSelection& selection, const std::string& requested, int local_rank) {
  std::string lower = requested;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const bool automatic = lower == "auto";
  DeviceChoice c;
  if (selection.cpu) {
    c.why = automatic ? std::string("--device auto: ") +
                            (cuda_compiled() ? "no CUDA device visible" : "frost was built without CUDA") +
                            ", running on the CPU"
                      : "--device cpu: running on the CPU";
    return c;
  }
  c.gpu = selection.gpu_for_rank(local_rank);
  c.why = "--device " + requested + ": GPU " + std::to_string(c.gpu) + " (" + cuda_device_description(c.gpu) + ")";
  if (selection.gpus.size() > 1)
    c.why += ", entry " + std::to_string(local_rank % static_cast<int>(selection.gpus.size())) + " of " +
             std::to_string(selection.gpus.size()) + " for local rank " + std::to_string(local_rank);
  return c;
}

} // namespace frost::movie_align
