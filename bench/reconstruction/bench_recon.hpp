#pragma once
// frost_bench_reconstruction: the GPU half as main.cpp sees it (gpu_cuda.cpp with CUDA,
// gpu_absent.cpp without).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../common/gpu_facts.hpp"
#include "frost/reconstruction/accumulator.hpp"
#include "frost/reconstruction/sample_batch.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::bench {

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
