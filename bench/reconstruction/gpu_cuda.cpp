// GPU half of frost_bench_reconstruction: the CUDA accumulator, its stats and the kernel-only
// timing (the device floors: ../common/gpu_facts.hpp).
#include <cuda_runtime.h>

#include <algorithm>

#include "bench_recon.hpp"
#include "frost/core/device.hpp"
#include "frost/cuda/check.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "frost/cuda/reconstruction.hpp"

namespace frost::bench {
namespace {

cuda::InsertLaunchConfig launch_for(const std::string& kernel) {
  cuda::InsertLaunchConfig c = cuda::default_insert_launch();
  c.kernel = kernel == "column" ? cuda::InsertKernel::Column : cuda::InsertKernel::Brick;
  return c;
}

} // namespace

std::unique_ptr<recon::GridAccumulator> make_gpu_accumulator(const recon::ReconstructionSettings& s,
                                                             const recon::GridLayout& layout, int grids,
                                                             const std::vector<int>& devices, int streams,
                                                             const std::string& kernel, bool fft_on_device) {
  cuda::InsertLaunchConfig launch = launch_for(kernel);
  launch.fft_on_device = fft_on_device;
  return cuda::make_cuda_accumulator(s, layout, grids, devices, streams, launch);
}

GpuRunStats gpu_run_stats(const recon::GridAccumulator& accumulator) {
  const cuda::CudaInsertStats c = cuda::cuda_insert_stats(accumulator);
  GpuRunStats r;
  r.valid = c.valid;
  r.launches = c.launches;
  r.kernel_ms = c.kernel_ms;
  r.wait_s = c.insert_wait_s;
  r.download_s = c.download_s;
  r.host_finish_s = c.host_finish_s;
  r.upload_gb = c.upload_bytes / 1e9;
  r.describe = accumulator.describe();
  return r;
}

double gpu_kernel_ms(const recon::ReconstructionSettings& s, const recon::GridLayout& layout,
                     const recon::SampleBatch& batch, int device, int reps, const std::string& kernel) {
  return cuda::time_insert_kernel(s, layout, batch, device, reps, launch_for(kernel)).ms_per_launch;
}

} // namespace frost::bench
