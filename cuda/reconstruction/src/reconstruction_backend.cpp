// The GPU half of recon::make_reconstruction_backend (libs/reconstruction/backend.hpp).
#include "frost/cuda/insert_tuning.hpp"
#include "frost/reconstruction/backend.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace detail {

std::unique_ptr<GridAccumulator> make_cuda_reconstruction_backend(const std::vector<int>& gpus,
                                                                  const ReconstructionSettings& settings,
                                                                  const GridLayout& layout, int grids,
                                                                  const ReconstructionBackendOptions& options) {
  // Each MPI rank selects (and tunes) for its own GPUs.
  return cuda::make_tuned_cuda_accumulator(settings, layout, grids, gpus, options.streams_per_device, options.tuning,
                                           options.spaces_per_launch, options.estimated_launches);
}

} // namespace detail
} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
