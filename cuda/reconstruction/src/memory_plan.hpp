#pragma once
// The memory plan of the CUDA accumulator (docs/reconstruct_fourier.md#memory): what the cubes,
// the batch buffers and the finish's buffers need on a device, checked against its free memory
// before anything is allocated, with the numbers and the advice in the error.
#include <cstddef>
#include <string>
#include <vector>

#include "frost/reconstruction/grid.hpp"

namespace frost::cuda::detail {

/// Headroom left free beside the cubes for the lanes' batch buffers, the finish's fold buffers
/// and the runtime.
constexpr std::size_t kReserveBytes = std::size_t(256) << 20;

/// finish(): the folded half grid comes down in chunks of whole z planes of at most this many
/// bytes, through two device and two pinned host buffers (the fold and copy of chunk k + 1 run
/// while the host adds chunk k).
constexpr std::size_t kFoldChunkBytes = std::size_t(32) << 20;

/// "1.23 GiB".
std::string gib(double bytes);

/// Every device of the list is visible, and none is listed twice: frost::Error(Usage) for a
/// repeated device, Error(Device) when CUDA has no device or fewer than an id needs.
void check_device_list(const std::vector<int>& devices);

/// Every device has room for the cubes of `grids` grids, the blob table and the headroom;
/// frost::Error(Device) with the numbers and the advice otherwise.
void check_cubes_fit(const std::vector<int>& devices, const recon::GridLayout& layout, int grids,
                     std::size_t table_bytes);

/// Whether every device has room, beside the cubes of `grids` grids, the table and the headroom,
/// for the double half grids of the periodic fold (docs/reconstruct_fourier.md#long-sums).
bool periodic_folds_fit(const std::vector<int>& devices, const recon::GridLayout& layout, int grids,
                        std::size_t table_bytes);

/// Bytes of one device half grid (float re, im, w per voxel).
std::size_t half_grid_bytes(const recon::GridLayout& layout);

/// Whether every device has room for a half grid beside its cubes, with chunk buffers.
bool half_grids_fit(const std::vector<int>& devices, const recon::GridLayout& layout);

/// The z planes of one download chunk on the current device: at most kFoldChunkBytes or a
/// quarter of the free memory, at least one plane, at most the whole grid.
int fold_chunk_planes(const recon::GridLayout& layout);

/// A lane's batch buffers of `bytes` (`capacity` images) fit in the current device's free
/// memory; frost::Error(Device) with the advice otherwise.
void check_batch_fits(int device, std::size_t bytes, int capacity);

/// The same for the FFT buffers of an image batch (`capacity` images of P x P).
void check_fft_batch_fits(int device, std::size_t bytes, int capacity, int P);

} // namespace frost::cuda::detail
