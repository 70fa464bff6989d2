#pragma once
/// @file insert_kernel.hpp
/// @brief Internal: the launch of the gather insertion kernel (insert_kernel.cu) as the host
/// side of the accumulator sees it. Every argument the kernel needs is in InsertArgs.
#include <cuda_runtime.h>

#include "frost/cuda/reconstruction.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/traverse_space.hpp"

namespace frost::cuda::detail {

enum class WeightMode { Table, Dynamic };

struct InsertArgs {
  const recon::TraverseSpace* spaces = nullptr; ///< device: space_count traverse spaces
  int space_count = 0;
  recon::SampleView samples;                    ///< device pointers (spectra, gw or nullptr)
  bool fast = false;                            ///< nearest-neighbour insertion (§5.8)
  WeightMode weight = WeightMode::Table;        ///< precise mode: table lookup or on the fly
  float radius = 0;                             ///< blob radius a
  recon::BlobTableView table;                   ///< device table (Table mode)
  recon::DynamicWeight dynamic;                 ///< Dynamic mode
  float* g = nullptr;                           ///< device cube G: (M+1)^3 interleaved re, im
  float* w = nullptr;                           ///< device cube W: (M+1)^3
  int side = 0;                                 ///< M + 1
  int extent_a = 0, extent_b = 0;               ///< largest columns_a() / columns_b() of the spaces
};

/// The grid and block of a launch (exposed for logs and checks).
struct LaunchShape {
  dim3 grid, block;
};
LaunchShape insert_launch_shape(const InsertLaunchConfig& config, const InsertArgs& args);

/// Throws frost::Error(Usage) for a configuration the hardware limits reject.
void validate(const InsertLaunchConfig& config);

/// Enqueues the insertion of every traverse space of `args` on `stream` (checked launch).
void launch_insert(const InsertLaunchConfig& config, const InsertArgs& args, cudaStream_t stream);

} // namespace frost::cuda::detail
