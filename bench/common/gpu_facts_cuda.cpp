// gpu_facts() with CUDA: device properties, the FP32 rate from SMs x lanes x clock, and a timed
// device-to-device copy for the measured bandwidth.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "frost/core/device.hpp"
#include "frost/cuda/check.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "gpu_facts.hpp"

namespace frost::bench {
namespace {

/// FP32 lanes per SM (CUDA programming guide, arithmetic instruction throughput table).
int fp32_lanes_per_sm(int major, int minor) {
  if (major == 8 && minor == 0) return 64;  // A100
  if (major >= 8) return 128;               // sm_86/87/89, Hopper, Blackwell
  if (major == 7) return 64;                // Volta, Turing
  if (major == 6) return minor == 0 ? 64 : 128;
  return 128;
}

/// Device-to-device copy bandwidth: (read + write) bytes / time, best of a few copies.
double measure_copy_bandwidth(int device) {
  cuda::DeviceGuard guard(device);
  const std::size_t bytes = std::size_t(512) << 20;
  const auto [free_b, total_b] = cuda::memory_info();
  (void)total_b;
  if (free_b < 3 * bytes) return 0.0;
  cuda::DeviceBuffer<unsigned char> a(bytes), b(bytes);
  cuda::Stream stream;
  cuda::Event start, stop;
  FROST_CUDA_CHECK(cudaMemsetAsync(a.data(), 1, bytes, stream.get()));
  double best_ms = 1e30;
  for (int r = 0; r < 6; ++r) {
    start.record(stream.get());
    FROST_CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
    stop.record(stream.get());
    stop.synchronize();
    if (r > 0) best_ms = std::min(best_ms, double(stop.elapsed_ms_since(start)));
  }
  return 2.0 * double(bytes) / (best_ms * 1e-3) / 1e9;
}

} // namespace

GpuFacts gpu_facts(int device) {
  GpuFacts f;
  if (device < 0 || device >= cuda_device_count()) return f;
  const CudaDeviceInfo info = cuda_device_info(device);
  if (!info.valid) return f;
  f.available = true;
  f.name = info.name;
  f.sm_count = info.sm_count;
  f.cc_major = info.cc_major;
  f.cc_minor = info.cc_minor;
  f.total_gib = double(info.total_memory) / (1024.0 * 1024.0 * 1024.0);
  f.peak_bandwidth_gbs = cuda_peak_bandwidth_gbs(device);
  int clock_khz = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device) != cudaSuccess) {
    cudaGetLastError();
    clock_khz = 0;
  }
  f.peak_fp32_gflops = double(info.sm_count) * fp32_lanes_per_sm(info.cc_major, info.cc_minor) * 2.0 * clock_khz * 1e3 / 1e9;
  f.measured_bandwidth_gbs = measure_copy_bandwidth(device);
  auto v = [](int x) { return std::to_string(x / 1000) + "." + std::to_string((x % 1000) / 10); };
  f.versions = "driver " + v(info.driver_version) + ", runtime " + v(info.runtime_version);
  return f;
}

} // namespace frost::bench
