// The CUDA half of frost_core's device queries (device.hpp) and cuda_versions(): only the runtime
// API, so this stays a host-compiler translation unit (frost_cuda_device_info).
#include <cuda_runtime.h>

#include <cstdio>

#include "frost/core/device.hpp"
#include "frost/core/version.hpp"

namespace frost {

bool cuda_compiled() { return true; }

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError(); // no driver / no device: not an error for the CPU path
    return 0;
  }
  return n;
}

std::string cuda_device_description(int id) {
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, id) != cudaSuccess) {
    cudaGetLastError();
    return "no CUDA device " + std::to_string(id);
  }
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %.1f GiB, %d SMs)", p.name, p.major, p.minor,
                static_cast<double>(p.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0), p.multiProcessorCount);
  return buf;
}

CudaDeviceInfo cuda_device_info(int id) {
  CudaDeviceInfo info;
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, id) != cudaSuccess) {
    cudaGetLastError();
    return info;
  }
  info.valid = true;
  info.name = p.name;
  char uuid[64];
  const auto* u = reinterpret_cast<const unsigned char*>(p.uuid.bytes);
  std::snprintf(uuid, sizeof uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
                u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
  info.uuid = uuid;
  info.cc_major = p.major;
  info.cc_minor = p.minor;
  info.sm_count = p.multiProcessorCount;
  info.total_memory = p.totalGlobalMem;
  info.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  cudaRuntimeGetVersion(&info.runtime_version);
  if (cudaDriverGetVersion(&info.driver_version) != cudaSuccess) cudaGetLastError();
  return info;
}

double cuda_peak_bandwidth_gbs(int id) {
  int clock_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, id) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, id) != cudaSuccess) {
    cudaGetLastError();
    return 0.0;
  }
  return 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
}

} // namespace frost

namespace frost {

std::string cuda_versions() {
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  if (cudaDriverGetVersion(&driver) != cudaSuccess) cudaGetLastError();
  auto v = [](int x) { return std::to_string(x / 1000) + "." + std::to_string((x % 1000) / 10); };
  return "CUDA runtime " + v(runtime) + ", driver " + (driver ? v(driver) : std::string("none")) +
         ", sm " FROST_CUDA_ARCHS;
}

} // namespace frost
