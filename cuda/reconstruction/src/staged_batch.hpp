#pragma once
// Kernel timing and offline tuning of the insertion (time_insert_kernel, InsertKernelBench;
// docs/tune.md#offline-protocol): one prepared batch kept on lane 0 of an accumulator and
// inserted at will with any launch configuration.
#include <cuda_runtime.h>

#include <vector>

#include "cuda_accumulator.hpp"

namespace frost::cuda::detail {

class StagedBatch {
public:
  explicit StagedBatch(CudaAccumulator& accumulator) : acc_(accumulator) {}

  /// Uploads `batch` (prepared samples) to lane 0 and keeps its launch arguments for every grid.
  void stage(const recon::SampleBatch& batch);
  /// Enqueues the staged batch's insertion into grid `grid` with `config` on lane 0's stream.
  void launch(const InsertLaunchConfig& config, int grid);
  cudaStream_t stream() { return acc_.lane(0).stream.get(); }
  int device() { return acc_.device_of(acc_.lane(0)).id; }
  /// Zeroes grid `grid`'s cube on lane 0's device (ordered on its stream).
  void zero_grid(int grid);
  /// The larger of the relative differences (tuning::relative_max_difference) of grid `out`'s
  /// G and W cubes against grid `ref`'s, computed on the device.
  double grid_difference(int ref, int out);
  /// Kernel-only timing on lane 0 (see time_insert_kernel): one warm-up launch of the
  /// accumulator's launch, then `reps` launches between two events.
  KernelTiming time(const recon::SampleBatch& batch, int reps);

private:
  CudaAccumulator& acc_;
  std::vector<InsertArgs> args_; ///< per grid, the staged batch's launch arguments
};

} // namespace frost::cuda::detail
