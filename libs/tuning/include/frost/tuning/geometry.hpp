#pragma once
/// @file geometry.hpp
/// @brief Device limits the constraints and launch geometries are checked against, and the
/// launch geometry every kernel derives from a configuration (docs/tune.md#launch-geometry). Plain CPU
/// types: constraints and geometry functions are tested without a GPU by simulating limits.
#include <cstdint>
#include <string>

namespace frost::tuning {

/// The device properties constraints may read (docs/tune.md#declaring-a-space). Defaults: a compute
/// capability 7.0 GPU without shared-memory opt-in.
struct DeviceLimits {
  std::int64_t max_threads_per_block = 1024;
  std::int64_t max_block_x = 1024, max_block_y = 1024, max_block_z = 64;
  std::int64_t max_grid_x = 2147483647, max_grid_y = 65535, max_grid_z = 65535;
  /// Largest dynamic + static shared memory one block may use (after opt-in, where the device
  /// offers more than the 48 KiB default).
  std::int64_t max_shared_bytes_per_block = 48 * 1024;
  std::int64_t shared_bytes_per_multiprocessor = 96 * 1024;
  std::int64_t registers_per_block = 65536;
  int warp_size = 32;
  int cc_major = 7, cc_minor = 0;
};

/// Shared memory a block may use without cudaFuncSetAttribute opt-in.
constexpr std::int64_t kDefaultSharedBytesPerBlock = 48 * 1024;

struct Dim3 {
  std::int64_t x = 1, y = 1, z = 1;
};

/// What a geometry function returns for one configuration, problem and device.
struct LaunchGeometry {
  Dim3 grid, block;
  std::int64_t dynamic_shared_bytes = 0;
  /// True when the kernel must opt in (cudaFuncSetAttribute) before this launch.
  bool needs_shared_optin() const { return dynamic_shared_bytes > kDefaultSharedBytesPerBlock; }
};

/// Empty when `g` can be launched on a device with `limits`, else why not (zero or oversized
/// dimensions, too many threads per block, too much shared memory).
std::string geometry_problem(const LaunchGeometry& g, const DeviceLimits& limits);

} // namespace frost::tuning
