#pragma once
// Sizes shared by the memory plan (memory_plan.cpp) and the backend (cuda_backend.cpp): element
// counts per image of every buffer either pipeline uses, the cuFFT ring length and small helpers.
#include <cstddef>
#include <string>

#include "frost/alignment/math/polar.hpp"

namespace frost::cuda::align_detail {

/// Headroom left free for the runtime and other users (docs/align_significant.md#memory-plan).
constexpr std::size_t kReserveBytes = std::size_t(256) << 20;

std::string mib(double bytes);
inline std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }
inline bool is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }
/// The l with 2^l >= n > 2^(l−1) (log2 of a power of two).
inline int log2_exact(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

/// Length N of the cuFFT pipeline's ring transforms (kernels' rotation_peak): S itself when cuFFT
/// is fast for it, else the advisor's fast size >= 2S (zero-padded rings, a linear correlation
/// folded to the circular one). S = 2⌊π r1⌋ is 388 = 4·97 at 128 px, where cuFFT's prime-97
/// kernels made the ring R2C half of a rotation step.
int ring_transform_length(int samples);

/// Element counts of one X × X image's buffers.
struct Sizes {
  std::size_t pixels, half, polar, polar_half, samples_total;
  int x, rings, samples, ring_length, ring_half;
  explicit Sizes(int x_) : x(x_) {
    const align::PolarGrid g = align::make_polar_grid(x);
    pixels = std::size_t(x) * x;
    half = std::size_t(x / 2 + 1) * x;
    rings = g.rings();
    samples = g.samples;
    ring_length = ring_transform_length(samples);
    ring_half = ring_length / 2 + 1;
    polar = std::size_t(rings) * ring_length;
    polar_half = std::size_t(rings) * ring_half;
    samples_total = std::size_t(rings) * samples;
  }
};

/// Which shift step runs: the fused one in one block per trajectory pair, the tiled one
/// (alignment_tiled.hpp) or the cuFFT pipeline's.
enum class ShiftKind { OneBlock, Tiled, Cufft };
ShiftKind shift_kind(int x, int radius, bool fused, bool tiled_everywhere);

/// References prepared together: B where a cuFFT plan (batch B) transforms them, else 1.
std::size_t reference_group(ShiftKind kind, std::size_t batch);

/// Device bytes per batch image and per resident reference of the steps that run
/// (docs/align_significant.md#memory-plan).
std::size_t batch_bytes(int x, ShiftKind kind, int radius, bool fused_rot);
std::size_t reference_bytes(int x, ShiftKind kind, bool fused_rot);

} // namespace frost::cuda::align_detail
