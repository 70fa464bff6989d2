#pragma once
// frost_bench_reconstruction: the GPU half as main.cpp sees it (gpu_cuda.cpp with CUDA,
// gpu_absent.cpp without).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frost/reconstruction/accumulator.hpp"
#include "frost/reconstruction/sample_batch.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::bench {

/// Facts and floors of one GPU.
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

/// The CUDA accumulator (throws frost::Error(Device) without CUDA) with insertion kernel
/// `kernel` ("brick" or "column").
std::unique_ptr<recon::GridAccumulator> make_gpu_accumulator(const recon::ReconstructionSettings& s,
                                                             const recon::GridLayout& layout, int grids,
                                                             const std::vector<int>& devices, int streams,
                                                             const std::string& kernel, bool fft_on_device = true);

/// What the CUDA accumulator measured during a run.
struct GpuRunStats {
  bool valid = false;
  std::int64_t launches = 0;
  double kernel_ms = 0;    ///< summed over lanes (overlapping lanes of one device count twice)
  double wait_s = 0;       ///< loaders waiting in insert() for copies / the lane's previous kernel
  double download_s = 0;   ///< finish(): sync + cube download
  double host_finish_s = 0;///< finish(): host sum, convolution (fast), fold
  double upload_gb = 0;
  std::string describe;
};
GpuRunStats gpu_run_stats(const recon::GridAccumulator& accumulator);

/// Kernel-only: ms per launch of the insertion of every traverse space of `batch`.
double gpu_kernel_ms(const recon::ReconstructionSettings& s, const recon::GridLayout& layout,
                     const recon::SampleBatch& batch, int device, int reps, const std::string& kernel);

} // namespace frost::bench
