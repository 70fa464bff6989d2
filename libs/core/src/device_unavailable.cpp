// The device queries of a build without CUDA (FROST_USE_CUDA=OFF): no devices, and a clear reason
// when one is asked for.
#include "frost/core/device.hpp"
#include "frost/core/version.hpp"

namespace frost {

bool cuda_compiled() { return false; }
int cuda_device_count() { return 0; }
std::string cuda_device_description(int) { return "frost was built without CUDA"; }
double cuda_peak_bandwidth_gbs(int) { return 0.0; }
CudaDeviceInfo cuda_device_info(int) { return {}; }

} // namespace frost

namespace frost {
std::string cuda_versions() { return "CUDA off"; }
} // namespace frost
