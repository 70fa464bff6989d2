// Pair correlation on the device (docs/movie_align.md#pair-correlation): the centred product spectra of
// a batch of pairs (inverse-transformed by a batched cuFFT C2R in between) and the integer peak
// search, one block per map. The sub-pixel fit runs on the host (refine_peak) from the 3x3 window
// the peak kernel writes, so CPU and GPU peaks share that code.
#include <climits>
#include <string>
#include <math.h>

#include "frost/core/error.hpp"
#include "frost/cuda/check.hpp"
#include "frost/motion/correlation_math.hpp"
#include "launch.cuh"
#include "motion_kernels.hpp"

namespace frost::cuda::motion_kernels {

namespace {

/// Blocks over (k_x, k_y) of a pair's half spectrum; blockIdx.z strides over the pairs. Thread
/// (tx, ty) does elements x0 + tx + t·blockDim.x for t < Tile (coalesced for every t).
template <int Tile>
__global__ void pair_products_kernel(const cufftComplex* spectra, const int2* pairs, int count, index_t half_x,
                                     index_t rows, cufftComplex* product) {
  const index_t per = half_x * rows;
  const index_t y = static_cast<index_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (y >= rows) return;
  const index_t x0 = static_cast<index_t>(blockIdx.x) * blockDim.x * Tile + threadIdx.x;
  for (int k = static_cast<int>(blockIdx.z); k < count; k += static_cast<int>(gridDim.z)) {
    const int2 pr = pairs[k];
#pragma unroll
    for (int t = 0; t < Tile; ++t) {
      const index_t x = x0 + static_cast<index_t>(t) * blockDim.x;
      if (x >= half_x) break;
      const index_t e = y * half_x + x;
      const cufftComplex a = spectra[static_cast<index_t>(pr.x) * per + e];
      const cufftComplex b = spectra[static_cast<index_t>(pr.y) * per + e];
      const float s = motion::centring_sign(x, y);
      // a·conj(b), then the centring sign (the order of the host's a * conj(b) * sign).
      const float re = a.x * b.x + a.y * b.y;
      const float im = a.y * b.x - a.x * b.y;
      product[static_cast<index_t>(k) * per + e] = make_cuFloatComplex(re * s, im * s);
    }
  }
}

// Larger value wins; on equal values the smaller linear index (first in row-major order, as the
// host's scan with a strict '>').
__device__ inline bool better(float v, long long idx, float best_v, long long best_idx) {
  return v > best_v || (v == best_v && idx < best_idx);
}

constexpr int kPeakThreads = 256;

__global__ void find_peaks_kernel(const float* maps, index_t cx, index_t cy, double radius,
                                  DevicePeak* out) {
  __shared__ float s_value[kPeakThreads];
  __shared__ long long s_index[kPeakThreads];
  const index_t k = blockIdx.x;
  const float* map = maps + k * cx * cy;
  const index_t hx = cx / 2, hy = cy / 2;
  const index_t rx = motion::search_extent(radius, cx), ry = motion::search_extent(radius, cy);
  const index_t box_w = 2 * rx + 1, box = box_w * (2 * ry + 1);
  // Start below every value; -inf and NaN never win, as with the host's strict '>' from -inf.
  float best = -INFINITY;
  long long best_idx = LLONG_MAX;
  for (index_t b = threadIdx.x; b < box; b += blockDim.x) {
    const index_t dx = b % box_w - rx, dy = b / box_w - ry;
    if (!motion::in_search_disc(dx, dy, radius)) continue;
    const long long idx = (hy + dy) * cx + (hx + dx);
    const float v = map[idx];
    if (v > best) {
      best = v;
      best_idx = idx;
    } else if (v == best && idx < best_idx && v > -INFINITY) {
      best_idx = idx;
    }
  }
  s_value[threadIdx.x] = best;
  s_index[threadIdx.x] = best_idx;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride && better(s_value[threadIdx.x + stride], s_index[threadIdx.x + stride],
                                       s_value[threadIdx.x], s_index[threadIdx.x])) {
      s_value[threadIdx.x] = s_value[threadIdx.x + stride];
      s_index[threadIdx.x] = s_index[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    DevicePeak p;
    const long long idx = s_index[0];
    // A map without a value above -inf keeps the centre, as the host's scan does.
    const bool any = idx != LLONG_MAX && s_value[0] > -INFINITY;
    const index_t px = any ? idx % cx : hx, py = any ? idx / cx : hy;
    p.ix = static_cast<int>(px - hx);
    p.iy = static_cast<int>(py - hy);
    p.value = any ? s_value[0] : -INFINITY;
    for (int oy = -1; oy <= 1; ++oy)
      for (int ox = -1; ox <= 1; ++ox)
        p.v[(oy + 1) * 3 + (ox + 1)] = map[periodic_index(py + oy, cy) * cx + periodic_index(px + ox, cx)];
    out[k] = p;
  }
}

} // namespace

void pair_products(const cufftComplex* spectra, const int2* pairs, int count, index_t half_x, index_t rows,
                   cufftComplex* product, cudaStream_t stream, const CorrelateLaunch& launch) {
  if (count <= 0) return;
  const dim3 block = block_2d(launch.block_x, launch.block_y, "pair products");
  const dim3 grid = grid_2d(half_x, rows, count, launch.block_x * static_cast<index_t>(launch.tile), launch.block_y);
  switch (launch.tile) {
    case 1: pair_products_kernel<1><<<grid, block, 0, stream>>>(spectra, pairs, count, half_x, rows, product); break;
    case 2: pair_products_kernel<2><<<grid, block, 0, stream>>>(spectra, pairs, count, half_x, rows, product); break;
    case 4: pair_products_kernel<4><<<grid, block, 0, stream>>>(spectra, pairs, count, half_x, rows, product); break;
    case 8: pair_products_kernel<8><<<grid, block, 0, stream>>>(spectra, pairs, count, half_x, rows, product); break;
    default: FROST_THROW(ExitCode::Usage, "pair products: tile " + std::to_string(launch.tile) + " is not 1, 2, 4 or 8");
  }
  FROST_CHECK_LAUNCH();
}

void find_peaks(const float* maps, index_t cx, index_t cy, int count, double radius, DevicePeak* out,
                cudaStream_t stream) {
  if (count <= 0) return;
  find_peaks_kernel<<<static_cast<unsigned int>(count), kPeakThreads, 0, stream>>>(maps, cx, cy, radius, out);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::motion_kernels
