#pragma once
/// @file alignment_fused.hpp
/// @brief Fused kernels of the CUDA aligner: a whole shift step (docs/align_significant.md#shift-step)
/// or rotation step (docs/align_significant.md#rotation-step) of two trajectories per thread block, in
/// shared memory, with the block FFTs of block_fft.cuh instead of cuFFT. They remove the per-step
/// round trips through device memory (warped image, spectra, correlation map, polar samples) that made
/// the cuFFT pipeline (alignment_kernels.hpp) memory-bound.
///
/// Two real trajectories A and B share one complex transform Z = FFT(A + iB). For a real
/// reference with spectrum F, F(ω)·conj(F_A(ω)) + i·F(ω)·conj(F_B(ω)) = F(ω)·Z(−ω), so one inverse
/// transform of F(ω)·Z(−ω) gives both correlations (A in the real part, B in the imaginary part).
/// Spectra stay in the bit-reversed order of the forward transform; the reference data are kept
/// in that order too.
///
/// The 2-D shift step for power-of-two X <= kFusedShiftMaxSize (the complex image must fit in
/// shared memory), the rotation step for any X (rings zero-padded to N = 2^a·5^b >= 2S, b <= 2;
/// the linear ring correlation is folded to the circular one as rotation_peak does).
#include <cuda_runtime.h>

#include "frost/alignment/math/polar.hpp"
#include "frost/alignment/math/pose2d.hpp"
#include "frost/alignment/settings.hpp"

namespace frost::cuda::fused_align {

/// Largest X of the fused shift step: X·(X+1) complex values must fit in shared memory.
constexpr int kFusedShiftMaxSize = 128;

/// Whether the fused shift step handles X × X images.
bool shift_supported(int x);
/// Ring transform length of the fused rotation step: a 2^a·5^b >= 2S with b <= 2, the one whose
/// block FFT takes the fewest passes, then the shortest (200, 512, 800, 1600 at 32, 64, 128,
/// 256 px).
int ring_length(int samples);

/// Whether reference_rings() keeps the Hermitian half of rings of N points: for N > 1024 (256 px),
/// where the rotation step's ring sum then reads half the reference data and fills the block with
/// N/2 pairs of positions; shorter rings (N/2 pairs would leave half of the threads idle, measured
/// slower at 128 px) keep every position.
__host__ __device__ constexpr bool hermitian_rings(int n) { return n > 1024; }
/// Complex values per ring of reference_rings().
__host__ __device__ constexpr int ring_values(int n) { return hermitian_rings(n) ? n / 2 : n; }

/// Twiddles exp(−2πik/n), k < n/2 (computed in double), for the block FFTs of even length n.
void upload_twiddles(int n, float2* dst, cudaStream_t s);

/// out[r] = 2-D forward transform of refs[r] (real), X × X complex in bit-reversed order
/// (row-major, position (py, px) holds frequency (brev py, brev px)). tw: twiddles of X.
void reference_spectra(const float* refs, int x, const float2* tw, float2* out, int count, cudaStream_t s);

/// out[k] = 2-D forward transform of raw[2k] + i·raw[2k + 1] (bit-reversed order; a missing last
/// image is 0): the input of the first shift step from the identity, the same for every
/// reference. `count` images.
void pair_spectra(const float* raw, int x, const float2* tw, float2* out, int count, cudaStream_t s);

/// The forward transforms G of the rings q of refs[r]'s polar samples (zero-padded to N =
/// ring_length(S), imaginary part 0) in block-FFT order, ring_values(N) complex values per ring:
/// for N > 1024 the Hermitian half, out[r][q][w] = G at position 2w (the frequencies k < N/2; the
/// negative ones are their conjugates, at the odd positions) except out[r][q][0] = (G(0), G(N/2)),
/// both real; else all N positions.
void reference_rings(const float* refs, const align::PolarGrid& grid, const float* sin_table, const float* cos_table,
                     const float2* tw_ring, float2* out, int count, cudaStream_t s);

/// Shift step of trajectories t < count (image t at raw + t·X²): the input image is raw itself
/// when `first` (the identity pose; its pair transforms are read from `pre` when non-null, see
/// pair_spectra), else W_{poses[t]}[raw]; poses[t] ← T(d)·poses[t]. With `samples` non-null, also
/// writes the polar samples (docs/align_significant.md#polar-grid, S per ring, rings in order) of
/// W_{poses[t]}[raw] with the new pose to samples + t·rings·S, for the rotation step that follows.
/// ref_spectrum: reference_spectra() of one reference.
void shift_step(const float* raw, const float2* pre, const float2* ref_spectrum, const float2* tw, int x, int radius,
                geom::SubpixelMethod subpixel, bool first, align::Pose2* poses, float* samples,
                const align::PolarGrid& grid, const float* sin_table, const float* cos_table, int count,
                cudaStream_t s);

/// Whether aligned_samples() runs at X: the disc of pixels that the polar grid reads fits in a
/// block's shared memory (up to 256 px on an H100).
bool aligned_samples_supported(int x);
/// samples + t·rings·S ← the polar samples (docs/align_significant.md#polar-grid, S per ring, rings
/// in order) of W_{poses[t]}[raw + t·X²], t < count: a rotation step's input after the tiled shift
/// step; the aligned image stays in shared memory (only the disc the samples read).
void aligned_samples(const float* raw, const align::Pose2* poses, const align::PolarGrid& grid,
                     const float* sin_table, const float* cos_table, float* samples, int count, cudaStream_t s);

/// Rotation step of trajectories t < count; poses[t] ← R(θ)·poses[t]. Input: either the aligned
/// images img + t·X² (raw when the pose is the identity), sampled here, or their polar samples
/// samples + t·rings·S (shift_step's, or align_kernels::polar with ring length S); the other
/// pointer is null. ref_rings: reference_rings() of one reference.
void rotation_step(const float* img, const float* samples, const float2* ref_rings, const align::PolarGrid& grid,
                   const float* sin_table, const float* cos_table, const float2* tw_ring, geom::SubpixelMethod subpixel,
                   align::Pose2* poses, int count, cudaStream_t s);
/// out[k] = the ring spectra of the pair samples[2k] + i·samples[2k + 1] (polar samples, S per
/// ring, rings in order, as the rotation step reads them; a missing last image is 0), rings × N
/// complex values per pair in bit-reversed order: the transforms of the first rotation step from
/// the identity, the same for every reference. `count` images.
void pair_rings(const float* samples, const align::PolarGrid& grid, const float2* tw_ring, float2* out, int count,
                cudaStream_t s);
/// The rotation step of trajectories t < count whose pairs' ring spectra are pair_spectra (see
/// pair_rings); the same poses, bit for bit, as rotation_step() from the samples they came from.
void rotation_step_from_spectra(const float2* pair_spectra, const float2* ref_rings, const align::PolarGrid& grid,
                                const float2* tw_ring, geom::SubpixelMethod subpixel, align::Pose2* poses, int count,
                                cudaStream_t s);

} // namespace frost::cuda::fused_align
