#pragma once
/// @file insert_kernel.hpp
/// @brief Internal: the launches of the insertion kernels (insert_kernel.cu) and of the finish
/// kernel (finish_kernel.cu) as the host side of the accumulator sees them. Every argument a
/// kernel needs is in InsertArgs / FoldArgs.
#include <cuda_runtime.h>

#include <vector>

#include "frost/cuda/reconstruction.hpp"
#include "frost/reconstruction/fold_math.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/grid_symmetry.hpp"
#include "frost/reconstruction/scatter.hpp"
#include "frost/reconstruction/traverse_space.hpp"

namespace frost::cuda::detail {

enum class WeightMode { Table, Dynamic };

/// Brick kernel geometry, the one place it is set: a brick is kBrickEdge^3 voxels, a block has
/// one thread per column of a brick face (kBrickEdge^2), and each staging round tests one
/// traverse space per thread.
constexpr int kBrickEdge = 16;
constexpr int kBrickThreads = kBrickEdge * kBrickEdge;
constexpr int kBrickStage = kBrickThreads;

/// One block of the brick kernel: brick `brick` (x fastest, bricks per axis = ceil((M+1) /
/// kBrickEdge)) inserts the batch's traverse spaces begin..end-1.
struct BrickTask {
  int brick = 0;
  int begin = 0, end = 0;
};

/// @brief The blocks of a brick launch for a batch of `space_count` spaces: the bricks that the
/// sphere of radius `max_radius` (the largest sqrt(max_distance_sqr) of the spaces) can reach,
/// each split into parts of about `target_hits` expected hits (a slice through the grid centre
/// passes within slab + h of a brick at distance R with probability about (slab + h) / R), the
/// heaviest parts first so the busiest bricks near the centre start early.
std::vector<BrickTask> make_brick_tasks(int M, int space_count, float slab, float max_radius, int target_hits);

struct InsertArgs {
  const recon::TraverseSpace* spaces = nullptr; ///< device: space_count traverse spaces
  int space_count = 0;
  recon::SampleView samples;                    ///< device pointers (spectra, gw or nullptr)
  bool fast = false;                            ///< nearest-neighbour insertion (fast mode)
  bool separable = false;                       ///< the separable kernel's scatter (one thread per sample pixel)
  WeightMode weight = WeightMode::Table;        ///< precise mode: table lookup or on the fly
  float radius = 0;                             ///< blob radius a
  recon::BlobTableView table;                   ///< device table (Table mode)
  recon::DynamicWeight dynamic;                 ///< Dynamic mode
  recon::WindowTableView windows;               ///< separable, Table mode: device window factors
  float* g = nullptr;                           ///< device cube G: (M+1)^3 interleaved re, im
  float* w = nullptr;                           ///< device cube W: (M+1)^3
  int side = 0;                                 ///< M + 1
  int extent_a = 0, extent_b = 0;               ///< Column: largest columns_a() / columns_b() of the spaces
  const BrickTask* tasks = nullptr;             ///< Brick: device, one per block
  int task_count = 0;
  float slab = 0;                               ///< Brick: half-width of the slab a space touches (a, or 0.5 in fast mode)
};

/// The grid and block of a column launch (exposed for logs and checks).
struct LaunchShape {
  dim3 grid, block;
};
LaunchShape insert_launch_shape(const InsertLaunchConfig& config, const InsertArgs& args);

/// Throws frost::Error(Usage) for a configuration the hardware limits reject.
void validate(const InsertLaunchConfig& config);

/// Enqueues the insertion of every traverse space of `args` on `stream` with the kernel that
/// config.kernel names, or with the scatter kernel for the separable kernel (checked launch).
void launch_insert(const InsertLaunchConfig& config, const InsertArgs& args, cudaStream_t stream);

/// The finish kernel: planes z0..z0+nz-1 of the folded half grid (step 2 of
/// docs/reconstruct_fourier.md#finalisation) of one device cube, in fast mode of the blob-convolved
/// cube, written as float: out[0, 2n) the interleaved complex values, out[2n, 3n) the weights, n =
/// nz (M+1) (M/2+1), half-grid order.
struct FoldArgs {
  const float* g = nullptr;             ///< device cube G (interleaved re, im)
  const float* w = nullptr;             ///< device cube W
  int M = 0;
  int z0 = 0, nz = 0;
  const recon::BlobTap* taps = nullptr; ///< device taps (fast mode), else nullptr
  int tap_count = 0;
  float* out = nullptr;                 ///< device, 3 n floats
};

/// Enqueues the finish kernel on `stream` (checked launch).
void launch_fold(const FoldArgs& args, cudaStream_t stream);

/// The periodic fold (docs/reconstruct_fourier.md#long-sums): adds the fold of the whole cube
/// (args.z0, nz and out unused) into `out`, a device double half grid in launch_fold's layout
/// (2 h interleaved values, then h weights, h = (M+1)^2 (M/2+1)). Checked launch on `stream`.
void launch_fold_add(const FoldArgs& args, double* out, cudaStream_t stream);

/// Planes [z0, z0 + nz) of such a double half grid, rounded to float as launch_fold writes a chunk.
void launch_half_to_float(const double* half, int M, int z0, int nz, float* out, cudaStream_t stream);

/// Enqueues step 3 of docs/reconstruct_fourier.md#finalisation (recon::average_kx0_pair) on a device
/// half grid of side M + 1: data (re, im) interleaved and weights, the layout launch_fold writes.
void launch_kx0_average(float* data, float* weight, int M, cudaStream_t stream);

/// The grid symmetrisation of z planes [z0, z0 + nz) of a device half grid (recon::
/// symmetrised_voxel, float storage, double sums), written as launch_fold writes a chunk:
/// 2 n interleaved values, then n weights (n = nz (M + 1) (M / 2 + 1)), rounded to float.
struct SymmetrisePlanesArgs {
  const float* data = nullptr;   ///< device half grid (re, im) interleaved, the whole grid
  const float* weight = nullptr; ///< its weights
  int M = 0;
  const recon::Rotation9<double>* rotations = nullptr; ///< device
  int count = 0;
  double max_r2 = 0;
  int z0 = 0, nz = 0;
  float* out = nullptr;
};
void launch_symmetrise_planes(const SymmetrisePlanesArgs& args, cudaStream_t stream);

} // namespace frost::cuda::detail
