// The gather insertion kernels (docs/reconstruct_fourier.md#gather-and-the-traverse-space,
// #the-cuda-backend). Both run the code the CPU accumulator runs (recon::gather_column_range /
// gather_column_nearest_range of gather.hpp) on exactly the (space, voxel) pairs the CPU visits;
// they differ in how the work is spread and summed:
// * column: one thread per column of the iteration plane of a traverse space, blockIdx.z strides
//   over the batch's spaces, float atomics into the cube for every voxel update;
// * scatter (the separable kernel only): one thread per sample pixel, recon::scatter_sample with
//   float atomics;
// * brick: one block per brick of the cube (or per part of the batch's spaces for busy bricks);
//   the block tests the batch's spaces against the brick, then walks the part inside the brick
//   of every column of every space that hits it, summing in shared memory, and adds each voxel
//   to the cube once at the end (atomics only between blocks, lanes and batches).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/cuda/check.hpp"
#include "frost/reconstruction/scatter.hpp"
#include "insert_kernel.hpp"

namespace frost::cuda::detail {
namespace {

/// Adds a voxel's gathered value into the device cube. Two float atomics for the complex value
/// (no float2 atomics) and one for the weight; the return values are unused, so the compiler
/// emits fire-and-forget reductions. Within one traverse space a voxel is written once; atomics
/// resolve overlaps between spaces and streams.
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

/// Position of this thread's column within its block's tile of the plane. tile == 1: row-major
/// (x fastest). tile > 1 (divides both block edges): consecutive threads fill tile x tile squares,
/// so a warp's columns are close in both plane axes and read nearby sample pixels (TILE of the
/// autotuning space, docs/tune.md#the-spaces-of-frost-kernels).
__device__ inline void column_in_block(int tile, int& ta, int& tb) {
  const int bx = static_cast<int>(blockDim.x);
  int lx = static_cast<int>(threadIdx.x), ly = static_cast<int>(threadIdx.y);
  if (tile > 1) {
    const int l = ly * bx + lx, area = tile * tile;
    const int t = l / area, r = l % area, tiles_x = bx / tile;
    lx = (t % tiles_x) * tile + r % tile;
    ly = (t / tiles_x) * tile + r / tile;
  }
  ta = static_cast<int>(blockIdx.x) * bx + lx;
  tb = static_cast<int>(blockIdx.y * blockDim.y) + ly;
}

/// Fast: nearest-neighbour insertion (Weight unused). Otherwise the precise gather with Weight
/// (recon::TableWeight or recon::DynamicWeight), its tap loops unrolled to Window (0: not
/// unrolled; recon::gather_taps). SharedTable (TableWeight only): the block first copies the blob
/// table into dynamic shared memory and looks weights up there (SHARED_BLOB_TABLE).
template <int Window, bool Fast, class Weight, bool SharedTable = false>
__global__ void insert_kernel(const recon::TraverseSpace* __restrict__ spaces, int space_count,
                              recon::SampleView samples, float radius, Weight weight, float* __restrict__ g,
                              float* __restrict__ w, int side, int tile) {
  if constexpr (SharedTable) {
    extern __shared__ float shared_table[];
    const int threads = static_cast<int>(blockDim.x * blockDim.y);
    for (int i = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x); i < weight.table.size; i += threads)
      shared_table[i] = weight.table.data[i];
    __syncthreads();
    weight.table.data = shared_table;
  }
  int ta = 0, tb = 0;
  column_in_block(tile, ta, tb);
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
      recon::gather_column<Window>(ts, a, b, samples, radius, weight, acc);
    }
  }
}

int blocks_for(int extent, int block) { return (extent + block - 1) / block; }

// ---- brick kernel ------------------------------------------------------------------------------

/// Shared-memory sums of a brick: three planes (re, im, w) of kBrickEdge^3 floats, rows padded
/// by one float so that the 32 columns a warp walks (16 x 2 of a brick face, along any of the
/// three axes) fall into distinct banks.
constexpr int kPitchY = kBrickEdge + 1;
constexpr int kPitchZ = kBrickEdge * kPitchY;
constexpr int kBrickPlane = kBrickEdge * kPitchZ;
constexpr std::size_t kBrickSharedBytes = 3 * std::size_t(kBrickPlane) * sizeof(float);
constexpr int kBrickWarps = kBrickThreads / 32;
static_assert(kBrickThreads % 32 == 0, "whole warps");
static_assert(kBrickStage == kBrickThreads, "one staged space per thread");
/// Slack of the brick test for float rounding of the per-voxel geometry (voxel coordinates are
/// at most a few hundred; the rounding of the dot products is ~1e-4 there).
constexpr float kBrickTestMargin = 0.01f;
/// Shared-memory carveout the brick kernel asks for (percent of the SM's 228 KB): two blocks.
constexpr int kBrickCarveoutPercent = 50;

/// Adds into the brick's shared sums. Within one iteration direction a voxel belongs to one
/// column of the brick face and so to one thread: plain adds; the kernel separates directions
/// with barriers.
struct SharedAdd {
  float* re;
  float* im;
  float* w;
  int lo_x, lo_y, lo_z;
  FROST_HD void operator()(int x, int y, int z, float gr, float gi, float ws) const {
    const int i = (z - lo_z) * kPitchZ + (y - lo_y) * kPitchY + (x - lo_x);
    re[i] += gr;
    im[i] += gi;
    w[i] += ws;
  }
};

/// One block per BrickTask. Per staging round each thread tests one traverse space against the
/// brick (conservatively: slab distance, half-plane and frequency cut-off of the brick's bounding
/// sphere); the hits are listed in order, one list per iteration direction. Then, direction by
/// direction (a barrier between them: the columns of one direction cross those of another),
/// thread (ta, tb) walks column (a0 + ta, b0 + tb) of the brick face for every hit space, the
/// part of the column inside the brick, with the shared gather code. At the end every voxel's
/// sums go to the cube with one atomic add per component (zero sums skipped).
template <int Window, bool Fast, class Weight>
__global__ void __launch_bounds__(kBrickThreads, 2)
    brick_kernel(const recon::TraverseSpace* __restrict__ spaces, const BrickTask* __restrict__ tasks,
                 recon::SampleView samples, float radius, float slab, Weight weight, float* __restrict__ g,
                 float* __restrict__ w, int side) {
  extern __shared__ float brick_sums[];
  __shared__ int s_hits[3][kBrickStage];
  __shared__ int s_warp[3][kBrickWarps];
  __shared__ int s_count[3];
  float* const sum_re = brick_sums;
  float* const sum_im = brick_sums + kBrickPlane;
  float* const sum_w = brick_sums + 2 * kBrickPlane;

  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid & 31, warp = tid >> 5;
  const BrickTask task = tasks[blockIdx.x];
  const int M = side - 1;
  const int nb = (side + kBrickEdge - 1) / kBrickEdge;
  const int lo_x = (task.brick % nb) * kBrickEdge;
  const int lo_y = ((task.brick / nb) % nb) * kBrickEdge;
  const int lo_z = (task.brick / (nb * nb)) * kBrickEdge;
  const int ex = min(kBrickEdge, side - lo_x), ey = min(kBrickEdge, side - lo_y), ez = min(kBrickEdge, side - lo_z);
  // Bounding sphere of the brick's voxels, in frequency coordinates (voxel - M/2).
  const float half = 0.5f * M;
  const float cx = lo_x + 0.5f * (ex - 1) - half, cy = lo_y + 0.5f * (ey - 1) - half, cz = lo_z + 0.5f * (ez - 1) - half;
  const float h = 0.5f * sqrtf(float((ex - 1) * (ex - 1) + (ey - 1) * (ey - 1) + (ez - 1) * (ez - 1)));
  const float centre_r = sqrtf(cx * cx + cy * cy + cz * cz);
  const float reach = slab + h + kBrickTestMargin;

  for (int i = tid; i < kBrickPlane; i += kBrickThreads) {
    sum_re[i] = 0.0f;
    sum_im[i] = 0.0f;
    sum_w[i] = 0.0f;
  }
  const SharedAdd acc{sum_re, sum_im, sum_w, lo_x, lo_y, lo_z};
  const int ta = tid % kBrickEdge, tb = tid / kBrickEdge;
  const unsigned lanes_below = (1u << lane) - 1u;

  for (int base = task.begin; base < task.end; base += kBrickStage) {
    // Stage: test space base + tid against the brick.
    const int t = base + tid;
    int d = -1;
    if (t < task.end) {
      const recon::TraverseSpace& ts = spaces[t];
      const geom::Mat3f& T = ts.transform_inv;
      const float wc = T.m[2][0] * cx + T.m[2][1] * cy + T.m[2][2] * cz; // signed distance to the slice plane
      const float uc = T.m[0][0] * cx + T.m[0][1] * cy + T.m[0][2] * cz; // position along the half-plane
      const bool near_plane = fabsf(wc) <= reach && uc >= -reach;
      const bool in_sphere = centre_r - h - kBrickTestMargin <= sqrtf(ts.max_distance_sqr);
      if (near_plane && in_sphere) d = ts.dir;
    }
    // Ordered compaction, one list per direction: warp ballots, then a scan over the warps.
    const unsigned b0 = __ballot_sync(0xffffffffu, d == 0);
    const unsigned b1 = __ballot_sync(0xffffffffu, d == 1);
    const unsigned b2 = __ballot_sync(0xffffffffu, d == 2);
    if (lane == 0) {
      s_warp[0][warp] = __popc(b0);
      s_warp[1][warp] = __popc(b1);
      s_warp[2][warp] = __popc(b2);
    }
    __syncthreads();
    if (tid < 3) {
      int total = 0;
      for (int k = 0; k < kBrickWarps; ++k) {
        const int c = s_warp[tid][k];
        s_warp[tid][k] = total;
        total += c;
      }
      s_count[tid] = total;
    }
    __syncthreads();
    if (d >= 0) {
      const unsigned b = d == 0 ? b0 : (d == 1 ? b1 : b2);
      s_hits[d][s_warp[d][warp] + __popc(b & lanes_below)] = t;
    }
    __syncthreads();

    // Insert the hits, one direction at a time.
    for (int dir = 0; dir < 3; ++dir) {
      const int n = s_count[dir];
      if (n == 0) continue;
      int a, b, c_lo, c_hi, ea, eb;
      if (dir == recon::kPlaneXY) {
        a = lo_x + ta; b = lo_y + tb; c_lo = lo_z; c_hi = lo_z + ez - 1; ea = ex; eb = ey;
      } else if (dir == recon::kPlaneXZ) {
        a = lo_x + ta; b = lo_z + tb; c_lo = lo_y; c_hi = lo_y + ey - 1; ea = ex; eb = ez;
      } else {
        a = lo_y + ta; b = lo_z + tb; c_lo = lo_x; c_hi = lo_x + ex - 1; ea = ey; eb = ez;
      }
      if (ta < ea && tb < eb) {
        for (int k = 0; k < n; ++k) {
          const recon::TraverseSpace& ts = spaces[s_hits[dir][k]];
          // Only the columns of the space's box, as the column kernel and the CPU walk them.
          const int a_min = dir == recon::kPlaneYZ ? ts.min_y : ts.min_x;
          const int a_max = dir == recon::kPlaneYZ ? ts.max_y : ts.max_x;
          const int b_min = dir == recon::kPlaneXY ? ts.min_y : ts.min_z;
          const int b_max = dir == recon::kPlaneXY ? ts.max_y : ts.max_z;
          if (a < a_min || a > a_max || b < b_min || b > b_max) continue;
          if constexpr (Fast) {
            recon::gather_column_nearest_range(ts, a, b, samples, acc, c_lo, c_hi);
          } else {
            recon::gather_column_range<Window>(ts, a, b, samples, radius, weight, acc, c_lo, c_hi);
          }
        }
      }
      __syncthreads(); // the next direction's columns cross this one's
    }
  }
  __syncthreads();

  // One atomic add per voxel and component for the whole batch (part).
  for (int i = tid; i < kBrickEdge * kBrickEdge * kBrickEdge; i += kBrickThreads) {
    const int lx = i % kBrickEdge, ly = (i / kBrickEdge) % kBrickEdge, lz = i / (kBrickEdge * kBrickEdge);
    if (lx >= ex || ly >= ey || lz >= ez) continue;
    const int s = lz * kPitchZ + ly * kPitchY + lx;
    const float vr = sum_re[s], vi = sum_im[s], vw = sum_w[s];
    if (vr == 0.0f && vi == 0.0f && vw == 0.0f) continue;
    const std::size_t v = (static_cast<std::size_t>(lo_z + lz) * side + (lo_y + ly)) * side + (lo_x + lx);
    if (vr != 0.0f) atomicAdd(g + 2 * v, vr);
    if (vi != 0.0f) atomicAdd(g + 2 * v + 1, vi);
    if (vw != 0.0f) atomicAdd(w + v, vw);
  }
}

template <int Window, bool Fast, class Weight>
void launch_brick(const InsertArgs& a, const Weight& weight, cudaStream_t stream) {
  auto* kernel = &brick_kernel<Window, Fast, Weight>;
  FROST_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(kBrickSharedBytes)));
  // Two blocks per SM (half the shared memory) leave the other half to the L1 cache, which holds
  // the blob table and the samples the gathers read: measured faster than four blocks per SM or one
  // (docs/performance.md#reconstruction).
  FROST_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, kBrickCarveoutPercent));
  kernel<<<static_cast<unsigned>(a.task_count), kBrickThreads, kBrickSharedBytes, stream>>>(
      a.spaces, a.tasks, a.samples, a.radius, a.slab, weight, a.g, a.w, a.side);
}

} // namespace

std::vector<BrickTask> make_brick_tasks(int M, int space_count, float slab, float max_radius, int target_hits) {
  const int side = M + 1;
  const int nb = (side + kBrickEdge - 1) / kBrickEdge;
  const double half = 0.5 * M;
  if (target_hits < 1) target_hits = 1;
  struct Item {
    double work;
    BrickTask task;
  };
  std::vector<Item> items;
  for (int bz = 0; bz < nb; ++bz)
    for (int by = 0; by < nb; ++by)
      for (int bx = 0; bx < nb; ++bx) {
        const int lo[3] = {bx * kBrickEdge, by * kBrickEdge, bz * kBrickEdge};
        double c2 = 0, h2 = 0;
        for (int k = 0; k < 3; ++k) {
          const int e = std::min(kBrickEdge, side - lo[k]);
          const double c = lo[k] + 0.5 * (e - 1) - half;
          c2 += c * c;
          h2 += 0.25 * (e - 1) * (e - 1);
        }
        const double r = std::sqrt(c2), h = std::sqrt(h2);
        // The kernel's sphere test with its margin (no space of the batch can hit beyond it).
        if (r - h - 2.0 * kBrickTestMargin > max_radius) continue;
        const double reach = slab + h;
        const double p = r <= reach ? 1.0 : reach / r;
        const double expected = p * space_count;
        int parts = static_cast<int>(std::ceil(expected / target_hits));
        parts = std::max(1, std::min(parts, space_count));
        for (int q = 0; q < parts; ++q) {
          Item it;
          it.task.brick = bx + nb * (by + nb * bz);
          it.task.begin = static_cast<int>(static_cast<long long>(space_count) * q / parts);
          it.task.end = static_cast<int>(static_cast<long long>(space_count) * (q + 1) / parts);
          it.work = expected / parts;
          items.push_back(it);
        }
      }
  std::stable_sort(items.begin(), items.end(), [](const Item& x, const Item& y) { return x.work > y.work; });
  std::vector<BrickTask> tasks;
  tasks.reserve(items.size());
  for (const Item& it : items) tasks.push_back(it.task);
  return tasks;
}

void validate(const InsertLaunchConfig& c) {
  if (c.brick_target_hits < 1)
    FROST_THROW(ExitCode::Usage, "insertion kernel: brick_target_hits must be >= 1");
  if (c.block_x < 1 || c.block_y < 1 || c.block_x * c.block_y > 1024 || c.block_x > 1024 || c.block_y > 1024)
    FROST_THROW(ExitCode::Usage, "insertion kernel: block " + std::to_string(c.block_x) + "x" +
                                     std::to_string(c.block_y) + " is outside 1..1024 threads");
  if (c.tile < 1 || (c.tile > 1 && (c.block_x % c.tile != 0 || c.block_y % c.tile != 0)))
    FROST_THROW(ExitCode::Usage, "insertion kernel: tile " + std::to_string(c.tile) + " must divide the block " +
                                     std::to_string(c.block_x) + "x" + std::to_string(c.block_y));
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

namespace {

/// The precise kernels unroll the tap loops to this window when the blob radius allows it
/// (recon::tap_window(a) <= kTapWindow: a < 2), else they loop (Window 0).
constexpr int kTapWindow = 4;

template <int Window, class Weight>
void launch_precise(const InsertLaunchConfig& c, const InsertArgs& args, const Weight& weight, cudaStream_t stream) {
  if (c.kernel == InsertKernel::Brick) {
    launch_brick<Window, false>(args, weight, stream);
    return;
  }
  const LaunchShape s = insert_launch_shape(c, args);
  if constexpr (std::is_same_v<Weight, recon::TableWeight>) {
    if (c.shared_blob_table) {
      const std::size_t bytes = static_cast<std::size_t>(weight.table.size) * sizeof(float);
      auto* kernel = &insert_kernel<Window, false, Weight, true>;
      // A table above the 48 KiB default needs the opt-in (the space's blob_table_fits keeps
      // it within the device's limit).
      if (bytes > 48 * 1024)
        FROST_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
      kernel<<<s.grid, s.block, bytes, stream>>>(
          args.spaces, args.space_count, args.samples, args.radius, weight, args.g, args.w, args.side, c.tile);
      return;
    }
  }
  insert_kernel<Window, false><<<s.grid, s.block, 0, stream>>>(args.spaces, args.space_count, args.samples,
                                                               args.radius, weight, args.g, args.w, args.side, c.tile);
}

template <class Weight>
void launch_precise(const InsertLaunchConfig& c, const InsertArgs& args, const Weight& weight, cudaStream_t stream) {
  if (recon::tap_window(args.radius) <= kTapWindow)
    launch_precise<kTapWindow>(c, args, weight, stream);
  else
    launch_precise<0>(c, args, weight, stream);
}

/// The separable kernel's scatter (docs/reconstruct_fourier.md#the-separable-kernel): one thread
/// per sample pixel (blockIdx.x over the pixels, y and z over the spaces), recon::scatter_sample
/// with float atomics. Pixels beyond the sphere's reach plus the window's diagonal are skipped:
/// every voxel they reach lies outside the sphere.
template <class Window>
__global__ void scatter_kernel(const recon::TraverseSpace* __restrict__ spaces, int space_count,
                               recon::SampleView samples, float reach_extra, Window win, float* __restrict__ g,
                               float* __restrict__ w, int side) {
  const int pixels = samples.fx * samples.fy;
  const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int s = static_cast<int>(blockIdx.y + blockIdx.z * gridDim.y);
  if (p >= pixels || s >= space_count) return;
  const recon::TraverseSpace& ts = spaces[s];
  const int i = p / samples.fx, j = p % samples.fx;
  const float ky = static_cast<float>(i) - 0.5f * samples.fy;
  const float reach = sqrtf(ts.max_distance_sqr) + reach_extra;
  if (static_cast<float>(j) * j + ky * ky > reach * reach) return;
  recon::scatter_sample(ts, j, i, samples, win, AtomicGrid{g, w, side});
}

template <class Window>
void launch_scatter(const InsertArgs& a, const Window& win, cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int pixels = a.samples.fx * a.samples.fy;
  const int window = win.window();
  // Voxels of a window lie within window/2 per axis of the pixel's position.
  const float reach_extra = 0.5f * window * 1.7320508f + 1e-3f;
  const unsigned gy = static_cast<unsigned>(a.space_count < 65535 ? a.space_count : 65535);
  const unsigned gz = static_cast<unsigned>((a.space_count + 65534) / 65535);
  const dim3 grid(static_cast<unsigned>((pixels + kThreads - 1) / kThreads), gy, gz);
  scatter_kernel<<<grid, kThreads, 0, stream>>>(a.spaces, a.space_count, a.samples, reach_extra, win, a.g, a.w,
                                                a.side);
}

} // namespace

void launch_insert(const InsertLaunchConfig& c, const InsertArgs& args, cudaStream_t stream) {
  if (args.space_count <= 0) return;
  if (args.separable) {
    if (args.weight == WeightMode::Table)
      launch_scatter(args, recon::TableWindow{args.windows}, stream);
    else
      launch_scatter(args, recon::DynamicWindow{args.dynamic, recon::scatter_window(args.radius)}, stream);
    FROST_CHECK_LAUNCH();
    FROST_SYNC_CHECK(stream);
    return;
  }
  if (c.kernel == InsertKernel::Brick) {
    if (args.task_count <= 0) return;
  } else {
    if (args.extent_a <= 0 || args.extent_b <= 0) return;
    const LaunchShape s = insert_launch_shape(c, args);
    // gridDim.y and gridDim.z are limited to 65535 (z by validate(); y: the plane extent is at
    // most M + 1 voxels, so this holds for any grid that fits in memory).
    if (s.grid.y > 65535u || s.grid.z > 65535u || s.grid.x > 2147483647u)
      FROST_THROW(ExitCode::Runtime, "insertion kernel: grid " + std::to_string(s.grid.x) + "x" +
                                         std::to_string(s.grid.y) + "x" + std::to_string(s.grid.z) +
                                         " exceeds the launch limits");
  }
  if (args.fast) {
    // Nearest-neighbour insertion: no tap loops.
    if (c.kernel == InsertKernel::Brick) {
      launch_brick<0, true>(args, recon::TableWeight{args.table}, stream);
    } else {
      const LaunchShape s = insert_launch_shape(c, args);
      insert_kernel<0, true, recon::TableWeight><<<s.grid, s.block, 0, stream>>>(
          args.spaces, args.space_count, args.samples, args.radius, recon::TableWeight{args.table}, args.g, args.w,
          args.side, c.tile);
    }
  } else if (args.weight == WeightMode::Table) {
    launch_precise(c, args, recon::TableWeight{args.table}, stream);
  } else {
    launch_precise(c, args, args.dynamic, stream);
  }
  FROST_CHECK_LAUNCH();
  FROST_SYNC_CHECK(stream);
}

} // namespace frost::cuda::detail
