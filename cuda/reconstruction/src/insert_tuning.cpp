#include "frost/cuda/insert_tuning.hpp"

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/cuda/tuning.hpp"
#include "frost/reconstruction/blob.hpp"
#include "frost/tuning/program_selection.hpp"

namespace frost::cuda {

tuning::FrInsertSettings fr_insert_settings(const recon::ReconstructionSettings& settings) {
  tuning::FrInsertSettings s;
  s.lookup_interpolation = settings.fast || settings.interp == recon::Interpolation::Lookup;
  s.blob_table_bytes = static_cast<std::int64_t>(recon::BlobTable::kDefaultSize) * static_cast<std::int64_t>(sizeof(float));
  return s;
}

tuning::KernelSpace fr_insert_kernel_space(const recon::ReconstructionSettings& settings,
                                           const tuning::DeviceLimits& limits) {
  return tuning::fr_insert_space(limits, fr_insert_settings(settings));
}

tuning::ProblemKey fr_insert_problem_key(const recon::ReconstructionSettings& settings,
                                         const recon::GridLayout& layout, long long spaces_per_launch) {
  const std::int64_t side = layout.side();
  const char* interp = settings.fast ? "fast" : (settings.interp == recon::Interpolation::Lookup ? "lookup" : "dynamic");
  return tuning::ProblemKey()
      .size("spec", {layout.fx, layout.fy})
      .size("vol", {side, side, side})
      .text("cplx", "f32")
      .integer("blob_order", settings.blob.order)
      .real("blob_r", settings.blob.radius)
      .real("alpha", settings.blob.alpha)
      .text("interp", interp)
      .bucket("batch", spaces_per_launch);
}

InsertLaunchConfig insert_launch_from(const tuning::NamedConfig& config, const InsertLaunchConfig& base) {
  auto value = [&config](const char* name) {
    if (const auto v = tuning::value_of(config, name)) return *v;
    FROST_THROW(ExitCode::Usage, std::string("fr_insert configuration without ") + name);
  };
  InsertLaunchConfig c = base;
  c.kernel = InsertKernel::Column;
  c.block_x = c.block_y = static_cast<int>(value("BLOCK_DIM"));
  c.max_grid_z = static_cast<int>(value("GRID_DIM_Z"));
  c.tile = static_cast<int>(value("TILE"));
  c.shared_blob_table = value("SHARED_BLOB_TABLE") != 0;
  return c;
}

FrInsertLookup fr_insert_lookup(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                                long long spaces_per_launch, int device, const CudaDeviceInfo& info,
                                const tuning::TuningOptions& options) {
  tuning::KernelSpace space = fr_insert_kernel_space(settings, device_limits(device));
  tuning::TuningKey key = tuning::tuning_key(space.kernel, space.space, info,
                                             fr_insert_problem_key(settings, layout, spaces_per_launch).str());
  tuning::Selection selection = tuning::select_for_program(options, key, space);
  return {std::move(space), std::move(key), std::move(selection)};
}

InsertLaunchConfig select_insert_launch(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                                        long long spaces_per_launch, int device, const tuning::TuningOptions& options,
                                        const InsertLaunchConfig& base) {
  const FrInsertLookup l =
      fr_insert_lookup(settings, layout, spaces_per_launch, device, cuda_device_info(device), options);
  log_info("tuning " + tuning::describe_selection(l.space.kernel, l.selection, options));
  return insert_launch_from(l.selection.config, base);
}

} // namespace frost::cuda
