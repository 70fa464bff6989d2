// make_alignment_backend: the CPU backend here, the GPU one behind the link-time seam
// (cuda/alignment, or alignment_backend_unavailable.cpp without CUDA).
#include "frost/alignment/backend.hpp"

namespace frost::align {

std::unique_ptr<AlignmentBackend> make_alignment_backend(const DeviceSelection& devices,
                                                         const AlignmentBackendOptions& options) {
  if (devices.cpu || devices.gpus.empty()) return make_cpu_backend(options.cpu_threads);
  return detail::make_cuda_alignment_backend(devices.gpus, options);
}

} // namespace frost::align
