#pragma once
// Facts and floors of one GPU for the benchmarks' "x floor" columns: peak and measured memory
// bandwidth and the peak FP32 rate (gpu_facts_cuda.cpp with CUDA, gpu_facts_absent.cpp without).
#include <string>

namespace frost::bench {

struct GpuFacts {
  bool available = false;
  std::string name;
  int sm_count = 0, cc_major = 0, cc_minor = 0;
  double total_gib = 0;
  double peak_bandwidth_gbs = 0;     ///< memory clock x bus width (frost::cuda_peak_bandwidth_gbs)
  double measured_bandwidth_gbs = 0; ///< device-to-device copy, (read + write) bytes / time
  double peak_fp32_gflops = 0;       ///< SMs x FP32 lanes per SM x 2 (FMA) x boost clock
  std::string versions;              ///< driver / runtime
};

/// Facts of `device` (available = false when built without CUDA or the device is missing).
GpuFacts gpu_facts(int device);

} // namespace frost::bench
