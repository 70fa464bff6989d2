// The CUDA backend of a build without CUDA (FROST_USE_CUDA=OFF).
#include <string>

#include "frost/core/error.hpp"
#include "frost/motion/motion_backend.hpp"

namespace frost::motion::detail {

std::unique_ptr<MotionBackend> make_cuda_motion_backend(int gpu, const MotionBackendOptions&) {
  FROST_THROW(ExitCode::Device, "--device " + std::to_string(gpu) + ": frost was built without CUDA; use --device cpu");
}

} // namespace frost::motion::detail
