// The gather insertion kernel (fourier-reconstruction.md §5.5, §5.8, §8.2): one thread per
// column of the iteration plane of a traverse space; blockIdx.z strides over the batch's spaces.
// The per-column work is recon::gather_column / gather_column_nearest from gather.hpp, the code
// the CPU accumulator runs; only the accumulator differs (atomic adds here).
#include <cstddef>
#include <string>

#include "frost/core/error.hpp"
#include "frost/cuda/check.hpp"
#include "insert_kernel.hpp"

namespace frost::cuda::detail {
namespace {

/// Adds a voxel's gathered value into the device cube. Two float atomics for the complex value
/// (no float2 atomics) and one for the weight; the return values are unused, so the compiler
/// emits fire-and-forget reductions. Within one traverse space a voxel is written once; atomics
/// resolve overlaps between spaces and streams (§8.2).
struct AtomicGrid {
  float* g;
  float* w;
  int side;
  FROST_HD void operator()(int x, int y, int z, float gr, float gi, float ws) const {
    const std::size_t i = (static_cast<std::size_t>(z) * side + y) * side + x;
#if defined(__CUDA_ARCH__)
    atomicAdd(g + 2 * i, gr);
    atomicAdd(g + 2 * i + 1, gi);
    atomicAdd(w + i, ws);
#else
    g[2 * i] += gr;
    g[2 * i + 1] += gi;
    w[i] += ws;
#endif
  }
};

/// Fast: nearest-neighbour insertion (Weight unused). Otherwise the precise gather with Weight
/// (recon::TableWeight or recon::DynamicWeight).
template <bool Fast, class Weight>
__global__ void insert_kernel(const recon::TraverseSpace* __restrict__ spaces, int space_count,
                              recon::SampleView samples, float radius, Weight weight, float* __restrict__ g,
                              float* __restrict__ w, int side) {
  const int ta = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int tb = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const AtomicGrid acc{g, w, side};
  for (int k = static_cast<int>(blockIdx.z); k < space_count; k += static_cast<int>(gridDim.z)) {
    const recon::TraverseSpace& ts = spaces[k];
    if (ta >= ts.columns_a() || tb >= ts.columns_b()) continue;
    // Column (a, b) of the plane; the same origin as the CPU loop (cpu_accumulator.cpp).
    const int a = (ts.dir == recon::kPlaneYZ ? ts.min_y : ts.min_x) + ta;
    const int b = (ts.dir == recon::kPlaneXY ? ts.min_y : ts.min_z) + tb;
    if constexpr (Fast) {
      recon::gather_column_nearest(ts, a, b, samples, acc);
    } else {
      recon::gather_column(ts, a, b, samples, radius, weight, acc);
    }
  }
}

int blocks_for(int extent, int block) { return (extent + block - 1) / block; }

} // namespace

void validate(const InsertLaunchConfig& c) {
  if (c.block_x < 1 || c.block_y < 1 || c.block_x * c.block_y > 1024 || c.block_x > 1024 || c.block_y > 1024)
    FROST_THROW(ExitCode::Usage, "insertion kernel: block " + std::to_string(c.block_x) + "x" +
                                     std::to_string(c.block_y) + " is outside 1..1024 threads");
  if (c.max_grid_z < 1 || c.max_grid_z > 65535)
    FROST_THROW(ExitCode::Usage, "insertion kernel: max_grid_z " + std::to_string(c.max_grid_z) +
                                     " is outside 1..65535");
}

LaunchShape insert_launch_shape(const InsertLaunchConfig& c, const InsertArgs& args) {
  LaunchShape s;
  s.block = dim3(static_cast<unsigned>(c.block_x), static_cast<unsigned>(c.block_y), 1);
  const int gz = args.space_count < c.max_grid_z ? args.space_count : c.max_grid_z;
  s.grid = dim3(static_cast<unsigned>(blocks_for(args.extent_a, c.block_x)),
                static_cast<unsigned>(blocks_for(args.extent_b, c.block_y)), static_cast<unsigned>(gz));
  return s;
}

void launch_insert(const InsertLaunchConfig& c, const InsertArgs& args, cudaStream_t stream) {
  if (args.space_count <= 0 || args.extent_a <= 0 || args.extent_b <= 0) return;
  const LaunchShape s = insert_launch_shape(c, args);
  // gridDim.y and gridDim.z are limited to 65535 (z by validate(); y: the plane extent is at
  // most M + 1 voxels, so this holds for any grid that fits in memory).
  if (s.grid.y > 65535u || s.grid.z > 65535u || s.grid.x > 2147483647u)
    FROST_THROW(ExitCode::Runtime, "insertion kernel: grid " + std::to_string(s.grid.x) + "x" +
                                       std::to_string(s.grid.y) + "x" + std::to_string(s.grid.z) +
                                       " exceeds the launch limits");
  if (args.fast) {
    insert_kernel<true, recon::TableWeight><<<s.grid, s.block, 0, stream>>>(
        args.spaces, args.space_count, args.samples, args.radius, recon::TableWeight{args.table}, args.g, args.w,
        args.side);
  } else if (args.weight == WeightMode::Table) {
    insert_kernel<false, recon::TableWeight><<<s.grid, s.block, 0, stream>>>(
        args.spaces, args.space_count, args.samples, args.radius, recon::TableWeight{args.table}, args.g, args.w,
        args.side);
  } else {
    insert_kernel<false, recon::DynamicWeight><<<s.grid, s.block, 0, stream>>>(
        args.spaces, args.space_count, args.samples, args.radius, args.dynamic, args.g, args.w, args.side);
  }
  FROST_CHECK_LAUNCH();
  FROST_SYNC_CHECK(stream);
}

} // namespace frost::cuda::detail
