// CUDA half of device.hpp: only the runtime API, so this stays a host-compiler translation unit.
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
