#include "frost/cuda/tuning.hpp"

#include "frost/cuda/check.hpp"

namespace frost::cuda {

tuning::DeviceLimits device_limits(int id) {
  cudaDeviceProp p{};
  FROST_CUDA_CHECK(cudaGetDeviceProperties(&p, id));
  tuning::DeviceLimits l;
  l.max_threads_per_block = p.maxThreadsPerBlock;
  l.max_block_x = p.maxThreadsDim[0];
  l.max_block_y = p.maxThreadsDim[1];
  l.max_block_z = p.maxThreadsDim[2];
  l.max_grid_x = p.maxGridSize[0];
  l.max_grid_y = p.maxGridSize[1];
  l.max_grid_z = p.maxGridSize[2];
  l.max_shared_bytes_per_block = static_cast<std::int64_t>(
      p.sharedMemPerBlockOptin > p.sharedMemPerBlock ? p.sharedMemPerBlockOptin : p.sharedMemPerBlock);
  l.shared_bytes_per_multiprocessor = static_cast<std::int64_t>(p.sharedMemPerMultiprocessor);
  l.registers_per_block = p.regsPerBlock;
  l.warp_size = p.warpSize;
  l.cc_major = p.major;
  l.cc_minor = p.minor;
  return l;
}

double LaunchTimer::time_ms(const std::function<void(cudaStream_t)>& launch) {
  start_.record(stream_);
  launch(stream_);
  FROST_CUDA_CHECK(cudaGetLastError());
  stop_.record(stream_);
  stop_.synchronize();
  return static_cast<double>(stop_.elapsed_ms_since(start_));
}

tuning::Measurement measure_launch(cudaStream_t stream, const std::function<void(cudaStream_t)>& launch,
                                   std::optional<double> best_median_ms, const tuning::MeasureRules& rules) {
  LaunchTimer timer(stream);
  return tuning::measure([&] { timer.time_ms(launch); }, [&] { return timer.time_ms(launch); }, best_median_ms,
                         rules);
}

} // namespace frost::cuda
