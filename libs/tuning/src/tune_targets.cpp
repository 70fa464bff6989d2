// The kernels and presets frost_tune knows; the targets themselves are behind the link-time
// seam (cuda/tuning, or tune_targets_unavailable.cpp without CUDA).
#include "frost/core/error.hpp"
#include "frost/tuning/tune_target.hpp"

namespace frost::tuning {

std::vector<std::string> tunable_kernels() { return {"fr_insert", "ma_correlate", "fourier_crop_filter"}; }

std::vector<std::string> presets_of(const std::string& kernel) {
  if (kernel == "fr_insert") {
    std::vector<std::string> out;
    for (int box : {32, 64, 128, 256})
      for (const char* sym : {"c1", "i"}) out.push_back("recon-" + std::to_string(box) + "-" + sym);
    return out;
  }
  if (kernel == "ma_correlate" || kernel == "fourier_crop_filter") return {"k3", "falcon"};
  FROST_THROW(ExitCode::Usage, "unknown kernel '" + kernel + "' (tunable: fr_insert, ma_correlate, fourier_crop_filter)");
}

std::unique_ptr<TuneTarget> make_tune_target(const std::string& kernel, const std::string& preset, int device) {
  (void)presets_of(kernel); // checks the kernel name
  return detail::make_cuda_tune_target(kernel, preset, device);
}

DeviceLimits gpu_device_limits(int device) { return detail::cuda_device_limits(device); }

} // namespace frost::tuning
