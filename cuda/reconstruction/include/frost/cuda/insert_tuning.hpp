#pragma once
/// @file insert_tuning.hpp
/// @brief Autotuning of the insertion kernel (`fr_insert` in docs/tune.md#the-spaces-of-frost-kernels): how
/// a configuration of the tuning space becomes an InsertLaunchConfig, the problem key of a
/// reconstruction, and a bench that keeps one batch on the device to time and verify
/// configurations. Host-compiler header (no CUDA types).
#include <memory>
#include <string>
#include <vector>

#include "frost/core/device.hpp"
#include "frost/cuda/reconstruction.hpp"
#include "frost/tuning/cache.hpp"
#include "frost/tuning/kernel_spaces.hpp"
#include "frost/tuning/key.hpp"
#include "frost/tuning/policy.hpp"
#include "frost/tuning/problem_key.hpp"

namespace frost::cuda {

/// The settings of a reconstruction that fix parameters of the `fr_insert` space.
tuning::FrInsertSettings fr_insert_settings(const recon::ReconstructionSettings& settings);

/// The `fr_insert` space for a reconstruction on a device with `limits`.
tuning::KernelSpace fr_insert_kernel_space(const recon::ReconstructionSettings& settings,
                                           const tuning::DeviceLimits& limits);

/// The problem key (docs/tune.md#key):
/// `spec=<fx>x<fy>;vol=<side>^3;cplx=f32;blob_order;blob_r;alpha;interp=lookup|dynamic|fast;
/// batch<=<spaces per launch, next power of two>`.
tuning::ProblemKey fr_insert_problem_key(const recon::ReconstructionSettings& settings,
                                         const recon::GridLayout& layout, long long spaces_per_launch);

/// The `fr_insert` space, tuning key and cache selection of a reconstruction on one device
/// (`info` = cuda_device_info(device)): what select_insert_launch and the dynamic tuner of
/// make_tuned_cuda_accumulator both start from.
struct FrInsertLookup {
  tuning::KernelSpace space;
  tuning::TuningKey key;
  tuning::Selection selection;
};
FrInsertLookup fr_insert_lookup(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                                long long spaces_per_launch, int device, const CudaDeviceInfo& info,
                                const tuning::TuningOptions& options);

/// The column kernel's launch for a configuration of the `fr_insert` space (BLOCK_DIM,
/// GRID_DIM_Z, SHARED_BLOB_TABLE, TILE); the rest (fft_on_device) comes from `base`. Missing
/// parameters are frost::Error(Usage).
InsertLaunchConfig insert_launch_from(const tuning::NamedConfig& config,
                                      const InsertLaunchConfig& base = default_insert_launch());

/// The launch a reconstruction uses on `device` under `options` (tuning::select_for_program
/// with this problem's `fr_insert` key: --tune off gives the default, the other policies the
/// cache's exact, stale or similar record); logs the configuration and its source once. The
/// rest of the launch (fft_on_device) comes from `base`.
InsertLaunchConfig select_insert_launch(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                                        long long spaces_per_launch, int device, const tuning::TuningOptions& options,
                                        const InsertLaunchConfig& base = default_insert_launch());

/// @brief make_cuda_accumulator whose insertion launch follows `options`
/// (docs/tune.md#dynamic-tuning-in-the-main-loop). off and cached: select_insert_launch on the first device.
/// auto and dynamic: every device gets a tuning::DynamicTuner over its `fr_insert` space, started from that
/// device's cache selection; it picks each launch, and its timed launches (batches of exactly
/// `spaces_per_launch` spaces) run alone on the device while the process holds the device's tuning lock.
/// `estimated_launches`: the run's insertions over all devices (n of docs/tune.md#when-dynamic-tuning-pays).
/// At finish() each device logs what it did and appends the record of a tuning phase to the cache.
std::unique_ptr<recon::GridAccumulator> make_tuned_cuda_accumulator(
    const recon::ReconstructionSettings& settings, const recon::GridLayout& layout, int grids,
    const std::vector<int>& devices, int streams_per_device, const tuning::TuningOptions& options,
    long long spaces_per_launch, double estimated_launches, const InsertLaunchConfig& base = default_insert_launch());

/// @brief One prepared batch kept on a device, inserted at will with any launch configuration
/// (docs/tune.md#offline-protocol; `fr_insert` accumulates, so every launch goes to a scratch
/// cube and is verified against a reference cube inserted once with the reference
/// configuration).
class InsertKernelBench {
public:
  /// Uploads `batch` (prepared samples, not images) to `device` and inserts it once with
  /// `reference` into the reference cube.
  InsertKernelBench(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                    const recon::SampleBatch& batch, int device, const InsertLaunchConfig& reference);
  ~InsertKernelBench();
  InsertKernelBench(const InsertKernelBench&) = delete;
  InsertKernelBench& operator=(const InsertKernelBench&) = delete;

  int spaces() const;
  /// One insertion with `config` into the scratch cube, timed with CUDA events (ms). A launch
  /// the device refuses is a frost::CudaError (the configuration is invalid there).
  double sample_ms(const InsertLaunchConfig& config);
  /// Zeroes the scratch cube, inserts once with `config` and returns the larger relative
  /// difference (tuning::relative_max_difference) of its G and W cubes against the reference.
  double difference(const InsertLaunchConfig& config);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace frost::cuda
