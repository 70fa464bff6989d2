// The GPU halves of tuning::make_tune_target and tuning::gpu_device_limits (tune_target.hpp).
#include "frost/core/error.hpp"
#include "frost/cuda/tuning.hpp"
#include "targets.hpp"

namespace frost::tuning::detail {

std::unique_ptr<TuneTarget> make_cuda_tune_target(const std::string& kernel, const std::string& preset, int device) {
  if (kernel == "fr_insert") return make_fr_insert_target(preset, device);
  if (kernel == "ma_correlate") return make_ma_correlate_target(preset, device);
  if (kernel == "fourier_crop_filter") return make_crop_filter_target(preset, device);
  FROST_THROW(ExitCode::Usage, "unknown kernel '" + kernel + "' (tunable: fr_insert, ma_correlate, fourier_crop_filter)");
}

DeviceLimits cuda_device_limits(int device) { return cuda::device_limits(device); }

} // namespace frost::tuning::detail
