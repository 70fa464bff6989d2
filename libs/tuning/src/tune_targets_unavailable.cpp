// The CUDA entry points of frost_tune's targets in a build without CUDA (FROST_USE_CUDA=OFF).
#include "frost/core/error.hpp"
#include "frost/tuning/tune_target.hpp"

namespace frost::tuning::detail {

std::unique_ptr<TuneTarget> make_cuda_tune_target(const std::string&, const std::string&, int) {
  FROST_THROW(ExitCode::Device, "frost_tune was built without CUDA: kernels can only be tuned on a CUDA GPU");
}

DeviceLimits cuda_device_limits(int) {
  FROST_THROW(ExitCode::Device, "frost_tune was built without CUDA; use --device cpu");
}

} // namespace frost::tuning::detail
