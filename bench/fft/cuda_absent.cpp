// CUDA half of a build without CUDA: nothing to time.
#include "bench_fft.hpp"
#include "frost/core/error.hpp"

namespace frost::bench {

bool cuda_available() { return false; }
std::string cuda_device_name() { return "built without CUDA"; }
Timing time_cuda(const fft::FftSpec&, const Settings&) {
  FROST_THROW(ExitCode::Device, "frost_bench_fft was built without CUDA");
}

} // namespace frost::bench
