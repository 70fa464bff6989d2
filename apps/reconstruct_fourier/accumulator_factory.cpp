#include "accumulator_factory.hpp"

#include "frost/core/error.hpp"

#if FROST_HAVE_CUDA_RECONSTRUCTION
#include "frost/cuda/insert_tuning.hpp"
#include "frost/cuda/reconstruction.hpp"
#endif

namespace frost::app {

std::unique_ptr<recon::GridAccumulator> make_accumulator(const recon::ReconstructionSettings& settings,
                                                         const recon::GridLayout& layout, int grids,
                                                         const std::vector<int>& gpus, int streams,
                                                         const tuning::TuningOptions& tuning, long long spaces_per_launch,
                                                         double estimated_launches) {
  if (gpus.empty()) {
    tuning::note_tuning_ignored_on_cpu(tuning);
    return recon::make_cpu_accumulator(settings, layout, grids);
  }
#if FROST_HAVE_CUDA_RECONSTRUCTION
  // Each MPI rank selects (and tunes) for its own GPUs.
  return cuda::make_tuned_cuda_accumulator(settings, layout, grids, gpus, streams, tuning, spaces_per_launch,
                                           estimated_launches);
#else
  (void)streams;
  (void)spaces_per_launch;
  (void)estimated_launches;
  FROST_THROW(ExitCode::Device, "GPU reconstruction requested but frost was built without CUDA; use --device cpu");
#endif
}

} // namespace frost::app
