// make_cufft_measurer() for builds without CUDA (FROST_USE_CUDA=OFF): there is no device to time.
#include "frost/core/error.hpp"
#include "frost/fft/advisor_backend.hpp"

namespace frost::fft {

std::unique_ptr<Measurer> make_cufft_measurer(int device) {
  throw Error(ExitCode::Device, "cannot measure cuFFT on device " + std::to_string(device) +
                                    ": frost was built without CUDA (FROST_USE_CUDA=OFF)");
}

} // namespace frost::fft
