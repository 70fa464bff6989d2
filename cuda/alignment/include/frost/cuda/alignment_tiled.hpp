#pragma once
/// @file alignment_tiled.hpp
/// @brief The shift step (docs/align_significant.md#shift-step) of the CUDA aligner for
/// power-of-two X whose complex image does not fit in one block's shared memory (256 px): the 2-D
/// transforms split over three kernels that pass tiles through device memory instead of cuFFT R2C,
/// a product kernel, cuFFT C2R and a peak kernel (about a third of their bytes).
///
/// 1. rows: each block warps a strip of rows of two trajectories A and B (one complex image
///    A + iB, as the fused steps) and transforms the rows; the strip goes out by columns.
/// 2. columns: each block takes a group of columns closed under kx → −kx, transforms them, forms
///    Y(ω) = F_R(ω)·Z(−ω)·(−1)^(kx+ky) (both factors are in the group), transforms the columns
///    back and splits the rows' spectra into the two real trajectories' Hermitian halves, only
///    for the rows the peak search reads (|dy| <= radius + 1).
/// 3. peak: one block per trajectory: the inverse row transforms (two real rows per complex
///    transform), the integer peak in the disc, its refinement and the new pose.
///
/// Spectra are kept in the "tiled" layout: column groups in order (group g holds kx = h·g ...
/// h·g + h − 1 and their negatives), each column's ky in bit-reversed order. The arithmetic per
/// element is the fused steps' (block_fft.cuh, the FROST_HD warp and peak code).
#include <cuda_runtime.h>

#include <cstddef>

#include "frost/alignment/math/pose2d.hpp"
#include "frost/alignment/settings.hpp"

namespace frost::cuda::tiled_shift {

/// Whether the tiled shift step handles X × X images with per-step search radius `radius`
/// (power-of-two X >= 32 whose peak rows fit in one block's shared memory).
bool supported(int x, int radius);

/// Complex values per trajectory pair of the column scratch (the rows' transforms): X².
std::size_t column_scratch(int x);
/// Complex values per trajectory of the row scratch: the rows the peak search reads × (X/2 + 1).
std::size_t row_scratch(int x, int radius);

/// out[k] = the 2-D transform (tiled layout, X² complex values) of imgs[per·k] + i·imgs[per·k + 1]
/// (per = 2; a missing last image is 0) or of imgs[k] (per = 1). `count` images; `scratch` holds
/// `scratch_pairs` column scratches (the transforms go through it in groups). tw: twiddles of X
/// (fused_align::upload_twiddles).
void spectra(const float* imgs, int per, int count, int x, const float2* tw, float2* scratch, int scratch_pairs,
             float2* out, cudaStream_t s);

/// Shift step of trajectories t < count (image t at raw + t·X²): the input image is raw itself
/// when `first` (the identity pose; its pair transforms are read from `pre` when non-null, see
/// spectra with per = 2), else W_{poses[t]}[raw]; poses[t] ← T(d)·poses[t]. ref: spectra() of
/// one (real) reference with per = 1. columns: (count + 1) / 2 column scratches; rows:
/// count row scratches.
void shift_step(const float* raw, const float2* pre, const float2* ref, const float2* tw,
                int x, int radius, geom::SubpixelMethod subpixel, bool first, align::Pose2* poses, float2* columns,
                float2* rows, int count, cudaStream_t s);

} // namespace frost::cuda::tiled_shift
