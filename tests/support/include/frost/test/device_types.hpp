#pragma once
/// @file device_types.hpp
/// @brief The two device selections the typed CPU/GPU suites of an area's backend seam are
/// instantiated with (make_<area>_backend(devices, ...)); the CUDA instance's fixture calls
/// FROST_REQUIRE_GPU() first.
#include <string>

#include "frost/core/device.hpp"

namespace frost::test {

struct CpuDevices {
  static DeviceSelection devices() { return DeviceSelection{true, {}}; }
  static constexpr bool gpu = false;
};
struct CudaDevices {
  static DeviceSelection devices() { return DeviceSelection{false, {0}}; }
  static constexpr bool gpu = true;
};
/// Test names "Cpu" and "Cuda" (TYPED_TEST_SUITE's third argument).
struct DeviceNames {
  template <class T>
  static std::string GetName(int) {
    return T::gpu ? "Cuda" : "Cpu";
  }
};

} // namespace frost::test
