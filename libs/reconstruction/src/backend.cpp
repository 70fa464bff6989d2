// make_reconstruction_backend: the CPU accumulator here, the GPU one behind the link-time seam
// (cuda/reconstruction, or reconstruction_backend_unavailable.cpp without CUDA).
#include "frost/reconstruction/backend.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

std::unique_ptr<GridAccumulator> make_reconstruction_backend(const DeviceSelection& devices,
                                                             const ReconstructionSettings& settings,
                                                             const GridLayout& layout, int grids,
                                                             const ReconstructionBackendOptions& options) {
  if (devices.cpu || devices.gpus.empty()) {
    tuning::note_tuning_ignored_on_cpu(options.tuning);
    return make_cpu_accumulator(settings, layout, grids);
  }
  return detail::make_cuda_reconstruction_backend(devices.gpus, settings, layout, grids, options);
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
