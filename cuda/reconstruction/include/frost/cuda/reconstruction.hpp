#pragma once
/// @file reconstruction.hpp
/// @brief The CUDA insertion backend of Fourier reconstruction
/// (docs/reconstruct_fourier.md#the-cuda-backend): a recon::GridAccumulator whose lanes are CUDA
/// streams on one or more devices.
///
/// Each lane owns a stream and device buffers for one batch (spectra, weight factors, traverse
/// spaces). insert() copies the batch asynchronously, launches the insertion kernel and returns
/// as soon as the copies are done, so the loader refills its pinned batch while the kernel runs.
/// Two insertion kernels run the shared recon::gather_column code (gather.hpp) on the same
/// (space, voxel) pairs as the CPU:
/// * Column (default; the published design): one thread per column of a traverse space's
///   iteration plane, float atomics into the cube for every voxel update;
/// * Brick: one block per 16^3 brick of the cube (or per part of the batch's spaces for bricks
///   near the centre, which every slice crosses); the block walks the parts of the columns of
///   every traverse space that hit the brick, sums in shared memory and adds each voxel to the
///   cube once per batch (atomics only across blocks, lanes and batches). Slower on an H100
///   (the column kernel is bound by instruction issue, not by its atomics; README.md).
/// finish() folds (and in fast mode first blob-convolves) every device's cube on the device
/// with the shared per-voxel code of fold_math.hpp, downloads the float half grid in chunks
/// through pinned staging buffers and adds it into the host's double half grid.
///
/// This header does not include CUDA headers: programs built with the host compiler use it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frost/reconstruction/accumulator.hpp"
#include "frost/reconstruction/sample_batch.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::cuda {

/// Which insertion kernel runs (both give the same voxel contributions; sums differ in order).
enum class InsertKernel {
  Column, ///< one thread per column of a space's iteration plane, atomics per voxel update
  Brick   ///< one block per brick of the cube, sums in shared memory, one atomic per voxel and batch
};

/// "column" / "brick".
const char* insert_kernel_name(InsertKernel kernel);

/// @brief Launch configuration of the insertion kernel: the one place to tune it
/// (`fr_insert` in docs/tune.md#the-spaces-of-frost-kernels). Brick: the brick edge (16) and its 256
/// threads (one per column of a brick face) are compile-time constants of the kernel. Column: a block of
/// block_x x block_y threads covers a tile of columns of the iteration plane; the grid covers the largest
/// plane extent of the batch's traverse spaces in x and y, and blockIdx.z strides over the spaces.
struct InsertLaunchConfig {
  /// Column by default: measured faster than the brick kernel on batches of 1500 spaces
  /// (docs/performance.md#reconstruction).
  InsertKernel kernel = InsertKernel::Column;
  int brick_target_hits = 192; ///< Brick: split a brick's spaces into parts of about this many expected hits
  int block_x = 16;       ///< Column: threads along the first plane axis (consecutive voxels in memory for XY/XZ)
  int block_y = 16;       ///< Column: threads along the second plane axis
  int max_grid_z = 65535; ///< Column: blocks along z (<= 65535); block z handles spaces z, z + grid_z, ...
  /// Column: 1 maps threads to columns row by row; > 1 (dividing both block edges) maps
  /// consecutive threads onto tile x tile squares of the plane (TILE).
  int tile = 1;
  /// Column, precise table weights: each block copies the blob table into shared memory first
  /// (SHARED_BLOB_TABLE; ignored with dynamic weights and in fast mode).
  bool shared_blob_table = false;
  /// --fftOnGPU (docs/reconstruct_fourier.md#cpu-and-gpu-split): the loaders hand over raw images and
  /// the lane pads, transforms (batched cuFFT R2C) and crops them on the device with the CPU's
  /// per-pixel code (sample_math.hpp). On by default: with the exact symmetry split (grid_symmetry.hpp)
  /// the CPU FFTs, not the insertion, were the bound of a GPU run (docs/performance.md#reconstruction).
  bool fft_on_device = true;
};

/// The configuration make_cuda_accumulator uses.
InsertLaunchConfig default_insert_launch();

/// @brief CUDA accumulator with `grids` full cubes on every device of `devices`, and
/// streams_per_device lanes (CUDA streams) per device: lanes() = devices.size() x
/// streams_per_device, lane l runs on devices[l / streams_per_device].
/// Checks the free memory of every device first and throws frost::Error(Device) with the numbers
/// when the cubes do not fit (docs/reconstruct_fourier.md#memory); a missing device is also Error(Device).
std::unique_ptr<recon::GridAccumulator> make_cuda_accumulator(const recon::ReconstructionSettings& settings,
                                                              const recon::GridLayout& layout, int grids,
                                                              const std::vector<int>& devices,
                                                              int streams_per_device,
                                                              const InsertLaunchConfig& launch = default_insert_launch());

/// Bytes one device holds for the cubes of `grids` grids: grids x (M+1)^3 x (8 + 4).
std::size_t cuda_cube_bytes(const recon::GridLayout& layout, int grids);

/// What a CUDA accumulator did so far (for logs and benchmarks).
struct CudaInsertStats {
  bool valid = false;           ///< false when the accumulator is not a CUDA one
  std::int64_t launches = 0;    ///< kernel launches (one per insert() of a non-empty batch)
  std::int64_t images = 0;      ///< images inserted
  std::int64_t spaces = 0;      ///< traverse spaces inserted (images x symmetry elements)
  double kernel_ms = 0;         ///< kernel time from events, summed over lanes (lanes of one device overlap)
  double upload_bytes = 0;      ///< host-to-device bytes of the batches
  double insert_wait_s = 0;     ///< host time insert() waited for its copies (and the lane's previous kernel)
  std::int64_t periodic_folds = 0; ///< cubes folded into their device double half grids during insertion
  double download_s = 0;        ///< finish(): stream synchronisation, device fold (+ convolution) and downloads
  double host_finish_s = 0;     ///< finish(): adding the downloaded half grids into the host's (double)
  /// What tuning the insertion launch during the run did (make_tuned_cuda_accumulator with auto
  /// or dynamic; one line per device, set by finish()); empty otherwise.
  std::string tuning;
};

/// Stats of an accumulator made by make_cuda_accumulator (valid = false for any other).
CudaInsertStats cuda_insert_stats(const recon::GridAccumulator& accumulator);

/// @brief Tests and debugging: waits for every lane and returns grid `grid`'s full cube as the
/// devices hold it (summed over devices on the host), before finish(). frost::Error(Usage) for
/// an accumulator that is not a CUDA one or is already finished.
recon::FullGrid cuda_download_cube(recon::GridAccumulator& accumulator, int grid);

/// @brief recon::symmetrise_grid on `device`: replaces the folded half grid by its sum over
/// `rotations` (the same per-voxel code, in double). Needs 6 x 8 bytes per half grid voxel on
/// the device; frost::Error when the device cannot hold them.
void symmetrise_half_grid(recon::HalfGrid& grid, const std::vector<recon::Rotation9<double>>& rotations,
                          double max_r2, int device);

/// Kernel-only timing of one batch (benchmarks, tuning).
struct KernelTiming {
  double ms_per_launch = 0; ///< mean over `reps` back-to-back launches after one warm-up
  int reps = 0;
  int spaces = 0;           ///< traverse spaces per launch
};

/// @brief Uploads `batch` once to `device` and times `reps` launches of the insertion of all of
/// its traverse spaces into a scratch cube (events on one stream).
KernelTiming time_insert_kernel(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                                const recon::SampleBatch& batch, int device, int reps,
                                const InsertLaunchConfig& launch = default_insert_launch());

} // namespace frost::cuda
