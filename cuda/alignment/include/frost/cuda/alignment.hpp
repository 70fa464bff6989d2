#pragma once
/// @file alignment.hpp
/// @brief The CUDA backend of the all-pairs aligner (docs/align_significant.md#cuda-backend and
/// #memory-plan): the same frost::align::AlignmentBackend as the CPU, the same FROST_HD per-element
/// math (libs/alignment/include/frost/alignment/math), run as batched kernels and cuFFT plans.
///
/// Tiles = (block of references, chunk of images). The images of a chunk (and their mirrors with
/// --check-mirrors) are uploaded once and reused for every reference; a reference block's
/// spectra F_R, polar spectra G_R and statistics are computed on the device once per tile. Per
/// reference and image batch of B images, 2B trajectories (both orders,
/// docs/align_significant.md#two-orders-and-iterations) run the iterations entirely on the device: shift
/// peak, rotation peak and pose update are kernels, so there is no host round trip inside a batch; CCs and
/// the better order are chosen on the device and the results of a tile come down in one copy. Only the
/// mirror choice and --max-shift rejection (two comparisons per pair) run on the host, after the download.
///
/// This header does not include CUDA headers: programs built with the host compiler use it.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "frost/alignment/backend.hpp"

namespace frost::cuda {

/// Options of the CUDA aligner.
struct CudaAlignOptions {
  int device = 0;                 ///< CUDA device id
  double memory_fraction = 0.8;   ///< `--gpu-mem-fraction`: share of the device's free memory to use
  int max_batch = 2048;           ///< upper bound of B (images per batch; 2B trajectories)
  int max_reference_block = 1024; ///< upper bound of references prepared and resident at once
  /// Fused steps (alignment_fused.hpp): the rotation step always, the shift step for
  /// power-of-two sizes up to 128 px in one block per trajectory pair and above that tiled
  /// (alignment_tiled.hpp) where it fits; false runs the cuFFT pipeline of every step.
  bool fused = true;
  /// With `fused`: run the tiled shift step also where the one-block step would (tests compare
  /// it with the CPU at small sizes).
  bool tiled_shift_everywhere = false;
};

/// Sizes chosen by the memory budget (docs/align_significant.md#memory-plan) for one run.
struct AlignMemoryPlan {
  std::size_t batch = 0;           ///< B: images per batch (2B trajectories)
  std::size_t image_chunk = 0;     ///< images resident at once (all of them when they fit)
  std::size_t reference_block = 0; ///< references prepared at once (a multiple of B, or all)
  std::size_t bytes = 0;           ///< device bytes the plan uses (without cuFFT work areas)
};

/// Bytes per image of a batch: two trajectories' aligned images, plus for the cuFFT steps the
/// 2-D spectrum and correlation, the polar samples and their ring spectra
/// (docs/align_significant.md#memory-plan, one half of the trajectories' scratch at a time).
std::size_t align_batch_bytes_per_image(int x, bool fused = true, int radius = -1);
/// Bytes per resident reference: pixels, F_R, G_R (plus statistics), in the layout of the
/// steps that run (the fused steps keep full spectra).
std::size_t align_reference_bytes(int x, bool fused = true, int radius = -1);

/// @brief The memory budget of docs/align_significant.md#memory-plan, a pure function (tested without a GPU):
/// budget = fraction · free − 256 MiB − `workspace` (cuFFT work areas), B = min(n_img,
/// max_batch, what a quarter of the budget holds), then the reference block and the image chunk
/// from the rest (images resident when they all fit). `sets` is 2 with mirrors, else 1;
/// `radius` the shift search radius (< 0: X/4), which decides whether the tiled shift step fits.
/// @throw frost::Error(Device) when not even B = 1 fits, naming the sizes.
AlignMemoryPlan plan_alignment_memory(int x, std::size_t n_ref, std::size_t n_img, int sets, std::size_t free_bytes,
                                      double fraction, std::size_t workspace, const CudaAlignOptions& opts,
                                      int radius = -1);

/// @brief The CUDA backend on one device.
/// @throw frost::Error(Device) when the device does not exist or CUDA is unusable.
std::unique_ptr<align::AlignmentBackend> make_cuda_align_backend(const CudaAlignOptions& opts = {});

/// @brief One or more devices (`--device 0,1`): references split into contiguous ranges, the
/// remainder spread too (every reference is processed), one host thread per device; the
/// results do not depend on the number of devices. `opts.device` is ignored.
/// @throw frost::Error(Usage) for an empty or repeated list, frost::Error(Device) as above.
std::unique_ptr<align::AlignmentBackend> make_cuda_align_backend(const CudaAlignOptions& opts,
                                                                 const std::vector<int>& devices);

} // namespace frost::cuda
