#pragma once
// Orders shared by the alignment kernels (kernels.cu, fused_kernels.cu): which of two correlation
// peaks wins, and in which order a block's threads visit the pixels of an image they warp.
#include <cuda_runtime.h>

namespace frost::cuda::align_order {

/// Larger value wins; equal values: the lower index (the CPU's first strict maximum).
__device__ inline bool better(float v, int i, float bv, int bi) { return v > bv || (v == bv && i < bi); }

/// (bv, bi) ← (v, i) when (v, i) is better.
__device__ inline void keep_better(float v, int i, float& bv, int& bi) {
  if (better(v, i, bv, bi)) {
    bv = v;
    bi = i;
  }
}

/// Pixel (i, j) of work item p of an x × x image: for x a multiple of 8, each warp takes a tile of
/// 8 × 4 pixels, so the bilinear reads of a rotated image touch a few cache lines per load
/// instead of one per lane (a row of 32 pixels spans up to 32 source rows); otherwise row-major.
/// Power-of-two x (the fused steps) index with shifts.
__device__ inline void tile_pixel(int p, int x, int& i, int& j) {
  if (x % 8 != 0) {
    i = p % x;
    j = p / x;
    return;
  }
  const int lane = p & 31, tile = p >> 5, tiles_per_row = x / 8;
  if ((tiles_per_row & (tiles_per_row - 1)) == 0) {
    const int log2_tiles = __ffs(tiles_per_row) - 1;
    i = ((tile & (tiles_per_row - 1)) << 3) + (lane & 7);
    j = ((tile >> log2_tiles) << 2) + (lane >> 3);
    return;
  }
  i = (tile % tiles_per_row) * 8 + (lane & 7);
  j = (tile / tiles_per_row) * 4 + (lane >> 3);
}

} // namespace frost::cuda::align_order
