#pragma once
/// @file device.hpp
/// @brief Where work runs: `--device cpu` or a list of CUDA device ids.
#include <cstddef>
#include <string>
#include <vector>

namespace frost {

/// The parsed value of `--device`: the CPU, or one or more GPU ids.
struct DeviceSelection {
  bool cpu = true;
  std::vector<int> gpus; ///< non-empty when cpu == false

  /// Parse "cpu", "0", "0,1", "0 1" (Scipion passes space separated ids), "cuda" (= GPU 0) or
  /// "auto" (every visible GPU, else the CPU).
  /// Throws frost::Error(Usage) on anything else.
  static DeviceSelection parse(const std::string& text);
  std::string to_string() const;
  /// The GPU this MPI rank (or process) should use: gpus[rank % gpus.size()].
  int gpu_for_rank(int rank) const;
};

/// This machine's host name, or "unknown-host" (run logs, cache provenance).
std::string host_name();

/// True when frost was built with the CUDA backend.
bool cuda_compiled();
/// Number of CUDA devices visible now (0 when not compiled, no driver or no GPU).
int cuda_device_count();
/// "NVIDIA H100 80GB HBM3 (sm_90, 79.1 GiB)" or an explanation why there is none.
std::string cuda_device_description(int id);
/// Facts about one CUDA device (for reports and cache keys); `valid` false when unavailable.
struct CudaDeviceInfo {
  bool valid = false;
  std::string name, uuid;
  int cc_major = 0, cc_minor = 0, sm_count = 0;
  std::size_t total_memory = 0, l2_bytes = 0;
  int driver_version = 0, runtime_version = 0; ///< as CUDA reports them (e.g. 13000)
};
CudaDeviceInfo cuda_device_info(int id);

/// Theoretical peak device-memory bandwidth [GB/s] from the memory clock and bus width
/// (2 transfers per clock); 0 when unknown. The floor benchmarks compare against.
double cuda_peak_bandwidth_gbs(int id);
/// Throws frost::Error(Device) with a clear message if `sel` asks for GPUs that do not exist.
void require_devices(const DeviceSelection& sel);

} // namespace frost
