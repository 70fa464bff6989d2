#pragma once
/// @file backend.hpp
/// @brief The one seam that picks the insertion backend of a run
/// (docs/reconstruct_fourier.md#backends): the CPU accumulator, or the CUDA one (cuda/reconstruction)
/// when frost was built with CUDA. Target frost::reconstruction_backend.
#include <memory>

#include "frost/core/device.hpp"
#include "frost/reconstruction/accumulator.hpp"
#include "frost/tuning/policy.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// What a GPU backend needs besides the grids; the CPU ignores it (one note for the tuning options).
struct ReconstructionBackendOptions {
  int streams_per_device = 1; ///< CUDA streams (loader lanes) per GPU
  /// The insertion kernel's launch follows these (docs/tune.md#dynamic-tuning-in-the-main-loop).
  tuning::TuningOptions tuning;
  long long spaces_per_launch = 0; ///< traverse spaces per batch (the tuning key's batch)
  double estimated_launches = 0;   ///< the run's insertions over all devices (for dynamic tuning)
};

/// @brief The accumulator of `grids` grids on `devices`: the CPU's for `devices.cpu`, else
/// the CUDA one on every id of `devices.gpus` (the caller picks this MPI rank's ids).
/// frost::Error(Device) when GPUs are asked for and frost was built without CUDA.
std::unique_ptr<GridAccumulator> make_reconstruction_backend(const DeviceSelection& devices,
                                                             const ReconstructionSettings& settings,
                                                             const GridLayout& layout, int grids,
                                                             const ReconstructionBackendOptions& options);

namespace detail {
/// The GPU half of make_reconstruction_backend: defined by cuda/reconstruction, or by
/// reconstruction_backend_unavailable.cpp in a build without CUDA.
std::unique_ptr<GridAccumulator> make_cuda_reconstruction_backend(const std::vector<int>& gpus,
                                                                  const ReconstructionSettings& settings,
                                                                  const GridLayout& layout, int grids,
                                                                  const ReconstructionBackendOptions& options);
} // namespace detail

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
