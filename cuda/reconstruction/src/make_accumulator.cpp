// The public entry points of the CUDA accumulator (reconstruction.hpp, insert_tuning.hpp): the
// fixed and the tuned factory, its stats and the cube test hook.
#include <memory>

#include "cuda_accumulator.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/cuda/insert_tuning.hpp"
#include "frost/cuda/tuning.hpp"
#include "frost/tuning/device_lock.hpp"
#include "frost/tuning/program_selection.hpp"

namespace frost::cuda {

InsertLaunchConfig default_insert_launch() { return InsertLaunchConfig{}; }

const char* insert_kernel_name(InsertKernel kernel) { return kernel == InsertKernel::Brick ? "brick" : "column"; }

std::unique_ptr<recon::GridAccumulator> make_cuda_accumulator(const recon::ReconstructionSettings& settings,
                                                              const recon::GridLayout& layout, int grids,
                                                              const std::vector<int>& devices,
                                                              int streams_per_device,
                                                              const InsertLaunchConfig& launch) {
  return std::make_unique<detail::CudaAccumulator>(settings, layout, grids, devices, streams_per_device, launch);
}

std::unique_ptr<recon::GridAccumulator> make_tuned_cuda_accumulator(
    const recon::ReconstructionSettings& settings, const recon::GridLayout& layout, int grids,
    const std::vector<int>& devices, int streams_per_device, const tuning::TuningOptions& options,
    long long spaces_per_launch, double estimated_launches, const InsertLaunchConfig& base) {
  const bool in_run = options.policy == tuning::TunePolicy::Auto || options.policy == tuning::TunePolicy::Dynamic;
  if (!in_run || devices.empty()) {
    const InsertLaunchConfig launch =
        devices.empty() ? base : select_insert_launch(settings, layout, spaces_per_launch, devices.front(), options, base);
    return make_cuda_accumulator(settings, layout, grids, devices, streams_per_device, launch);
  }
  auto acc = std::make_unique<detail::CudaAccumulator>(settings, layout, grids, devices, streams_per_device, base);
  std::vector<std::unique_ptr<detail::DeviceTuning>> per_device;
  for (std::size_t d = 0; d < acc->device_count(); ++d) {
    const int id = acc->device_id(d);
    const CudaDeviceInfo info = cuda_device_info(id);
    FrInsertLookup lookup = fr_insert_lookup(settings, layout, spaces_per_launch, id, info, options);
    tuning::DynamicTuner::Setup setup;
    setup.options = options;
    setup.key = lookup.key.str();
    setup.selection = std::move(lookup.selection);
    setup.estimated_calls = estimated_launches / static_cast<double>(acc->device_count());
    const std::string dir = options.cache_dir, uuid = info.uuid;
    setup.lock_device = [dir, uuid] { return tuning::try_tuning_lock(dir, uuid); };
    log_info("tuning device " + std::to_string(id) + " " +
             tuning::describe_selection(lookup.space.kernel, setup.selection, options, true));
    auto T = std::make_unique<detail::DeviceTuning>();
    T->comparable_spaces = static_cast<int>(spaces_per_launch);
    T->cache_dir = dir;
    T->gpu_uuid = uuid;
    tuning::KernelSpace& space = lookup.space;
    T->tuner = std::make_unique<tuning::DynamicTuner>(std::move(space), std::move(setup));
    for (const tuning::Configuration& c : T->tuner->configs())
      T->launches.push_back(insert_launch_from(T->tuner->space().space.named(c), base));
    per_device.push_back(std::move(T));
  }
  acc->enable_tuning(std::move(per_device));
  return acc;
}

CudaInsertStats cuda_insert_stats(const recon::GridAccumulator& accumulator) {
  const auto* a = dynamic_cast<const detail::CudaAccumulator*>(&accumulator);
  return a ? a->stats() : CudaInsertStats{};
}

recon::FullGrid cuda_download_cube(recon::GridAccumulator& accumulator, int grid) {
  auto* a = dynamic_cast<detail::CudaAccumulator*>(&accumulator);
  if (!a) FROST_THROW(ExitCode::Usage, "cuda_download_cube: not a CUDA accumulator");
  return a->download_cube(grid);
}

} // namespace frost::cuda
