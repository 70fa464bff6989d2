// The CUDA entry points of a build without CUDA (FROST_USE_CUDA=OFF).
#include "frost/core/error.hpp"
#include "frost/fft/backend.hpp"

namespace frost::fft::detail {

std::shared_ptr<Planner> make_cuda_planner(int device) {
  FROST_THROW(ExitCode::Device, "cannot use CUDA device " + std::to_string(device) +
                                    " for FFTs: frost was built without CUDA (FROST_USE_CUDA=OFF)");
}

std::string cufft_version_string() { return "cuFFT: built without CUDA"; }
int cufft_version_number() { return 0; }

} // namespace frost::fft::detail
