#pragma once
/// @file alignment_kernels.hpp
/// @brief The kernels of the CUDA aligner (table in
/// docs/align_significant.md#which-shift-and-rotation-steps-run), asynchronous on a stream, on
/// device pointers. Each calls the FROST_HD math of libs/alignment (warp_pixel, polar_sample,
/// shift_product, geom::refine_peak_2d, pose_compose). Exposed for the per-kernel parity tests; the
/// backend (cuda_backend.cpp) is their only other user.
///
/// Trajectory arrays are contiguous: image t of a batch starts at t · X² floats, its 2-D
/// spectrum at t · (X/2+1)·X complex values, its polar samples at t · rings · N floats (N the
/// ring length, see polar()).
#include <cuda_runtime.h>

#include "frost/alignment/math/peak.hpp"
#include "frost/alignment/math/polar.hpp"
#include "frost/alignment/math/pose2d.hpp"
#include "frost/alignment/settings.hpp"

namespace frost::cuda::align_kernels {

/// poses[t] = identity, t < count.
void init_poses(align::Pose2* poses, int count, cudaStream_t s);
/// dst[t] = W_{poses[t]}[src[t]] (docs/align_significant.md#conventions), t < count, x × x images.
void warp(const float* src, const align::Pose2* poses, float* dst, int x, int count, cudaStream_t s);
/// out[t][q][k] = polar_sample(img[t], grid, r0 + q, sin[k], cos[k]) for k < S, rings
/// `ring_length` (N >= S) floats apart; samples S..N-1 of each ring are not written (the caller
/// keeps them 0: the zero padding of the ring transforms, see rotation_peak).
void polar(const float* img, const align::PolarGrid& grid, int ring_length, const float* sin_table,
           const float* cos_table, float* out, int count, cudaStream_t s);
/// out[t] = shift_product(ref_spec, in[t]) (step 2 of docs/align_significant.md#shift-step), x × x
/// images (interleaved complex); out may be in.
void shift_product(const float2* ref_spec, const float2* in, float2* out, int x, int count, cudaStream_t s);
/// Shift peak in |d| ≤ radius of corr[t] (ties: lowest linear index), refined as `subpixel`;
/// poses[t] ← T(d) · poses[t]. With `shifts` non-null also writes (dx, dy) there.
void shift_peak(const float* corr, int x, int radius, geom::SubpixelMethod subpixel, align::Pose2* poses,
                float2* shifts, int count, cudaStream_t s);
/// sums[t][w] = Σ_q ref[q][w] · conj(spec[t][q][w]) (float, rings in order q = 0, 1, ...).
void ring_sum(const float2* ref_polar, const float2* spec, float2* sums, int rings, int half, int count,
              cudaStream_t s);
/// Rotation peak of the circular ring correlation ρ[t] (S samples; ties: lowest k), refined;
/// poses[t] ← R(θ) · poses[t]. rho[t] holds `ring_length` (N) values: N = S, ρ itself; N >= 2S,
/// the inverse transform of zero-padded rings (a linear correlation, lags >= 0 at k, < 0 at
/// N + k), folded here: ρ(k) = rho[k] + rho[N − S + k], the same values as an S-point transform
/// up to rounding (S = 2⌊π r1⌋ has large prime factors; N can be fast). With `angles` non-null
/// also writes θ [deg] there.
void rotation_peak(const float* rho, int samples, int ring_length, geom::SubpixelMethod subpixel, align::Pose2* poses,
                   float* angles, int count, cudaStream_t s);
/// Population mean and standard deviation of img[t] (double sums): stats[2t], stats[2t + 1].
void statistics(const float* img, int pixels, double* stats, int count, cudaStream_t s);
/// cc[t] = Pearson CC of img[t] with ref (ref_stats = its mean and stddev, device), 0 when either
/// is constant (docs/align_significant.md#pearson-correlation); double accumulators, a fixed
/// reduction order (deterministic).
void correlation(const float* ref, const double* ref_stats, const float* img, int pixels, float* cc, int count,
                 cudaStream_t s);
/// As correlation() for the aligned images W_{poses[t]}[raw[t]] (x × x), warped on the fly: the
/// same values as warp() followed by correlation().
void correlation_warped(const float* ref, const double* ref_stats, const float* raw, const align::Pose2* poses, int x,
                        float* cc, int count, cudaStream_t s);
/// out[i] = the better order of image i: trajectory i (rotation-first) or half + i (shift-first);
/// the shift-first one only with a strictly larger CC. i < count.
void choose_order(const float* cc, const align::Pose2* poses, int half, align::PairResult* out, int count,
                  cudaStream_t s);

} // namespace frost::cuda::align_kernels
