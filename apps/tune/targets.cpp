// The kernels and presets frost_tune knows, and the factory of their targets.
#include "frost/core/error.hpp"
#include "tune_target.hpp"

namespace frost::tune_app {

#if FROST_HAVE_CUDA
std::unique_ptr<TuneTarget> make_fr_insert_target(const std::string& preset, int device);
std::unique_ptr<TuneTarget> make_ma_correlate_target(const std::string& preset, int device);
std::unique_ptr<TuneTarget> make_crop_filter_target(const std::string& preset, int device);
#endif

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

std::unique_ptr<TuneTarget> make_target(const std::string& kernel, const std::string& preset, int device) {
  (void)presets_of(kernel); // checks the kernel name
#if FROST_HAVE_CUDA
  if (kernel == "fr_insert") return make_fr_insert_target(preset, device);
  if (kernel == "ma_correlate") return make_ma_correlate_target(preset, device);
  if (kernel == "fourier_crop_filter") return make_crop_filter_target(preset, device);
#else
  (void)preset;
  (void)device;
#endif
  FROST_THROW(ExitCode::Device, "frost_tune was built without CUDA: kernels can only be tuned on a CUDA GPU");
}

} // namespace frost::tune_app
