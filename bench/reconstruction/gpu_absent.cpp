// GPU half of a build without CUDA: nothing to run on a GPU.
#include "bench_recon.hpp"
#include "frost/core/error.hpp"

namespace frost::bench {

std::unique_ptr<recon::GridAccumulator> make_gpu_accumulator(const recon::ReconstructionSettings&,
                                                             const recon::GridLayout&, int, const std::vector<int>&,
                                                             int, const std::string&, bool) {
  FROST_THROW(ExitCode::Device, "frost_bench_reconstruction was built without CUDA");
}

GpuRunStats gpu_run_stats(const recon::GridAccumulator&) { return {}; }

double gpu_kernel_ms(const recon::ReconstructionSettings&, const recon::GridLayout&, const recon::SampleBatch&, int,
                     int, const std::string&) {
  FROST_THROW(ExitCode::Device, "frost_bench_reconstruction was built without CUDA");
}

} // namespace frost::bench
