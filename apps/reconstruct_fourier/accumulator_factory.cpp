#include "accumulator_factory.hpp"

#include "frost/core/error.hpp"

#if FROST_HAVE_CUDA_RECONSTRUCTION
#include "frost/cuda/reconstruction.hpp"
#endif

namespace frost::app {

std::unique_ptr<recon::GridAccumulator> make_accumulator(const recon::ReconstructionSettings& settings,
                                                         const recon::GridLayout& layout, int grids,
                                                         const std::vector<int>& gpus, int streams) {
  if (gpus.empty()) return recon::make_cpu_accumulator(settings, layout, grids);
#if FROST_HAVE_CUDA_RECONSTRUCTION
  return cuda::make_cuda_accumulator(settings, layout, grids, gpus, streams);
#else
  (void)streams;
  FROST_THROW(ExitCode::Device, "GPU reconstruction requested but frost was built without CUDA; use --device cpu");
#endif
}

} // namespace frost::app
