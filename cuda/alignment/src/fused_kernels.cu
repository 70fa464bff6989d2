// Fused shift and rotation steps of the CUDA aligner (alignment_fused.hpp): two trajectories per
// thread block, everything between reading the raw images and writing the new poses in shared
// memory. Per-element math is the FROST_HD code the CPU estimator calls (warp_pixel,
// polar_sample, refine_peak_2d, rotation_angle, pose_compose); only the FFTs differ (block
// FFTs here, FFTW there), as between cuFFT and FFTW in the unfused pipeline.
#include <cfloat>
#include <climits>
#include <cmath>
#include <vector>

#include "align_sizes.hpp"
#include "block_fft.cuh"
#include "device_warp.cuh"
#include "kernel_order.cuh"
#include "frost/core/error.hpp"
#include "frost/core/shape.hpp"
#include "frost/cuda/alignment_fused.hpp"
#include "frost/cuda/check.hpp"

namespace frost::cuda::fused_align {
namespace {

using align::Pose2;
using geom::SubpixelMethod;
namespace bf = block_fft;
using namespace align_order;
using align_detail::is_pow2;
using align_detail::log2_exact;
using align_device::part;
using align_device::warp_at;

constexpr unsigned kFull = 0xffffffffu;

/// Rings per chunk of the rotation step: as many as fit in the chunk budget of shared memory
/// (rows of N + 1 complex values), at most the rings rounded up to a power of two. For N >= 768
/// (128 and 256 px) the budget is 136 KiB: 8 to 16 rings, so the threads of a half-warp (one per
/// ring) touch distinct banks in the FFT passes, and one block of 1024 threads holds the SM;
/// shorter rings keep 72 KiB and two or more blocks per SM (measured faster at 32 and 64 px).
constexpr int kLongRing = 768;
std::size_t rings_smem(int n, int chunk, bool with_sum) {
  return (std::size_t(chunk) * (n + 1) + (with_sum ? std::size_t(n) : 0) + std::size_t(n / 2)) * sizeof(float2);
}
/// The dynamic shared memory a block of the current device may opt in to.
std::size_t max_block_smem() {
  int dev = 0, v = 0;
  FROST_CUDA_CHECK(cudaGetDevice(&dev));
  FROST_CUDA_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  return static_cast<std::size_t>(v);
}
int ring_chunk(int ring_n, int rings) {
  const int budget = ring_n >= kLongRing ? 139264 : 73728;
  int c = 1;
  while (2 * c * (ring_n + 1) * 8 <= budget && c < rings) c *= 2;
  // Long rings: 16 per chunk where they fit beside the ring sum and the twiddles (1600-point rings
  // at 256 px: 219 KiB of 227), so that the 16 threads of a half-warp, one per ring, touch
  // distinct banks (8 rings per chunk left 3-4-way conflicts).
  if (ring_n >= kLongRing && c < 16 && rings >= 16 && rings_smem(ring_n, 16, true) <= max_block_smem()) c = 16;
  return c;
}

/// Threads of the rotation step: one per 8 chunk elements, 1024 at most for N >= 768, else 512.
int rotation_threads(int ring_n, int chunk) {
  return std::max(32, std::min(ring_n >= kLongRing ? 1024 : 512, chunk * ring_n / 8));
}

/// Block-wide (value, index) argmax of two candidates per thread (trajectories A and B), warp
/// shuffles then one shared array; the result is the same in every order (a total order).
__device__ void block_argmax2(float& va, int& ia, float& vb, int& ib, float* sv, int* si) {
  for (int off = 16; off > 0; off >>= 1) {
    const float ova = __shfl_down_sync(kFull, va, off), ovb = __shfl_down_sync(kFull, vb, off);
    const int oia = __shfl_down_sync(kFull, ia, off), oib = __shfl_down_sync(kFull, ib, off);
    keep_better(ova, oia, va, ia);
    keep_better(ovb, oib, vb, ib);
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = (blockDim.x + 31) / 32;
  if (lane == 0) {
    sv[2 * warp] = va;
    si[2 * warp] = ia;
    sv[2 * warp + 1] = vb;
    si[2 * warp + 1] = ib;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < warps; ++w) {
      keep_better(sv[2 * w], si[2 * w], sv[0], si[0]);
      keep_better(sv[2 * w + 1], si[2 * w + 1], sv[1], si[1]);
    }
  }
  __syncthreads();
}

/// Rows q < qn of rings q0 + q from images a and b (b null: 0): samples k < S only, drawn in
/// compact patches per warp (2 neighbouring rings x 16 neighbouring samples, or 32 samples of one
/// ring), whose stores (rows N + 1 apart) hit distinct banks in each half-warp. Only the patches
/// that hold samples k < S of rings q < qn are visited and written (the forward transform with
/// len = S takes k >= S as zero).
__device__ void sample_ring_chunk(float2* rows, int pitch, int q0, int qn, const align::PolarGrid& g,
                                  const float* sin_t, const float* cos_t, const float* a_img, const float* b_img) {
  const int rows_log2 = qn > 1 ? 1 : 0, cols_log2 = 5 - rows_log2;
  const int per_row = (g.samples + (1 << cols_log2) - 1) >> cols_log2; // patches along a ring
  const int patches = per_row * ((qn + (1 << rows_log2) - 1) >> rows_log2);
  const int lane = threadIdx.x & 31, warps = blockDim.x >> 5;
  const int dk = lane & ((1 << cols_log2) - 1), dq = lane >> cols_log2;
  int patch = threadIdx.x >> 5, col = patch % per_row, row = patch / per_row; // advanced without divisions
  for (; patch < patches; patch += warps) {
    const int k = (col << cols_log2) + dk, q = (row << rows_log2) + dq;
    if (k < g.samples && q < qn) { // align::polar_sample of both images, one position, 32-bit indexing
      float u, v;
      const float w = align::polar_position(g, g.first_ring + q0 + q, sin_t[k], cos_t[k], u, v);
      const int x = g.size;
      const float a = w * align::bilinear_at([a_img, x](int i, int j) { return __ldg(a_img + j * x + i); }, u, v);
      const float b =
          b_img ? w * align::bilinear_at([b_img, x](int i, int j) { return __ldg(b_img + j * x + i); }, u, v) : 0.0f;
      rows[q * pitch + k] = make_float2(a, b);
    }
    col += warps;
    while (col >= per_row) {
      col -= per_row;
      ++row;
    }
  }
}

/// Rows q < qn of rings q0 + q from precomputed samples (S per ring, rings in order) of images a
/// and b (b null: 0), read in order.
__device__ void load_ring_chunk(float2* rows, int pitch, int q0, int qn, int s, const float* a, const float* b) {
  const std::size_t at0 = std::size_t(q0) * s;
  for (int e = threadIdx.x; e < s * qn; e += blockDim.x) {
    const int q = e / s, k = e - q * s;
    rows[q * pitch + k] = make_float2(a[at0 + e], b ? b[at0 + e] : 0.0f);
  }
}

/// Where the rings of trajectories t0 and t0 + 1 (or of one reference) come from: their polar
/// samples (S per ring, rings in order), read in order, or their images, sampled here; b null: 0.
struct RingSource {
  const float *samples_a, *samples_b, *img_a, *img_b;
};
__device__ RingSource ring_source(const float* images, const float* samples, int t0, bool has_b,
                                  const align::PolarGrid& g) {
  if (samples) {
    const float* a = samples + std::size_t(t0) * g.rings() * g.samples;
    return {a, has_b ? a + std::size_t(g.rings()) * g.samples : nullptr, nullptr, nullptr};
  }
  const float* a = images + std::size_t(t0) * g.size * g.size;
  return {nullptr, nullptr, a, has_b ? a + std::size_t(g.size) * g.size : nullptr};
}

/// Rows q < qn of the chunk of rings from q0, loaded or sampled, and their forward transforms (n
/// points, zero beyond S); ends synchronised.
__device__ void transform_ring_chunk(float2* rows, int pitch, int q0, int qn, const align::PolarGrid& g,
                                     const float* sin_t, const float* cos_t, const RingSource& src, int n,
                                     const float2* tw) {
  if (src.samples_a) load_ring_chunk(rows, pitch, q0, qn, g.samples, src.samples_a, src.samples_b);
  else sample_ring_chunk(rows, pitch, q0, qn, g, sin_t, cos_t, src.img_a, src.img_b);
  __syncthreads();
  bf::forward_n(rows, n, qn, pitch, 1, tw, g.samples);
}

/// Visits this thread's polar samples (q, k) of every ring q and the angles k in [k0, k0 + kn)
/// (work items e = q·kn + (k − k0), e ≡ threadIdx.x modulo blockDim.x; (q, k) advance without
/// divisions): f(q·S + k, i, j, fx, fy, w) with (i, j) the top-left neighbour of the sample's
/// position, (fx, fy) its fractions and w the ring weight, as align::polar_sample. `Range` false:
/// k0 = 0 and kn = S (every angle; q·S + k is then e, which the loop uses as is). ring_w: the
/// weights of the rings (ring_weights()), so that no sample divides.
template <bool Range, class F>
__device__ void for_each_polar_sample(const align::PolarGrid& g, int k0, int kn, const float* sin_t,
                                      const float* cos_t, const float* ring_w, F f) {
  const int items = g.rings() * kn;
  const int step_q = static_cast<int>(blockDim.x) / kn, step_k = static_cast<int>(blockDim.x) - step_q * kn;
  int q = static_cast<int>(threadIdx.x) / kn, k = static_cast<int>(threadIdx.x) - q * kn;
  for (int e = threadIdx.x; e < items; e += blockDim.x) {
    float u, v;
    const int ka = Range ? k0 + k : k;
    align::polar_point(g, g.first_ring + q, sin_t[ka], cos_t[ka], u, v);
    const float wgt = ring_w[q];
    const int i = static_cast<int>(u), j = static_cast<int>(v);
    f(Range ? q * g.samples + ka : e, i, j, u - static_cast<float>(i), v - static_cast<float>(j), wgt);
    q += step_q;
    k += step_k;
    if (k >= kn) {
      k -= kn;
      ++q;
    }
  }
}

/// w[q] = align::polar_weight of ring q, q < rings (this block's threads; the caller synchronises).
__device__ void ring_weights(const align::PolarGrid& g, float* w) {
  for (int q = threadIdx.x; q < g.rings(); q += blockDim.x) w[q] = align::polar_weight(g, g.first_ring + q);
}

/// aligned_samples_kernel: threads per block, and the side of the square of pixels one quadrant
/// of samples reads (X/2 + 2: from 2 pixels before the centre outward on each axis).
constexpr int kQuadrantThreads = 1024;
__host__ __device__ constexpr int quadrant_side(int x) { return x / 2 + 2; }

/// Linear position (bit-reversed layout) of frequency −ω for the one at position lp. Written out
/// rather than as two bf::mirror_bit_reversed calls: the product loop reuses ky, kx after inlining
/// (the calls measured slower at 128 px).
__device__ int mirror_position(int lp, int x, int log2x) {
  const int py = lp >> log2x, px = lp & (x - 1);
  const int ky = bf::bit_reverse(py, log2x), kx = bf::bit_reverse(px, log2x);
  return bf::bit_reverse((x - ky) & (x - 1), log2x) * x + bf::bit_reverse((x - kx) & (x - 1), log2x);
}

// One block per `per_block` (1 or 2) images: the 2-D forward transform of A (+ iB) in
// bit-reversed order.
__global__ void spectra_kernel(const float* __restrict__ imgs, int per_block, int count, int x, int log2x,
                               const float2* __restrict__ tw_g, float2* __restrict__ out) {
  extern __shared__ float2 sm[];
  const int pitch = x + 1, pixels = x * x;
  float2* data = sm;
  float2* tw = data + x * pitch;
  for (int k = threadIdx.x; k < x / 2; k += blockDim.x) tw[k] = tw_g[k];
  const int t0 = blockIdx.x * per_block;
  const bool has_b = per_block == 2 && t0 + 1 < count;
  const float* a = imgs + std::size_t(t0) * pixels;
  for (int e = threadIdx.x; e < pixels; e += blockDim.x)
    data[(e >> log2x) * pitch + (e & (x - 1))] = make_float2(a[e], has_b ? a[pixels + e] : 0.0f);
  __syncthreads();
  bf::forward(data, log2x, log2x, pitch, 1, tw); // rows
  bf::forward(data, log2x, log2x, 1, pitch, tw); // columns
  float2* o = out + std::size_t(blockIdx.x) * pixels;
  for (int e = threadIdx.x; e < pixels; e += blockDim.x) o[e] = data[(e >> log2x) * pitch + (e & (x - 1))];
}

// One block per `per_block` (1 or 2) trajectories or references: the ring spectra of A (+ iB) in
// block-FFT order, from their images (sampled) or their polar samples. For references (1,
// images) the G_R of docs/align_significant.md#reference-precomputation, rings × N/2 values in the
// Hermitian half layout (reference_rings); for image pairs (2, samples) rings × N, what the first
// rotation step from the identity transforms, once for every reference.
__global__ void ring_spectra_kernel(const float* __restrict__ images, const float* __restrict__ samples,
                                    int per_block, int count, align::PolarGrid g, const float* __restrict__ sin_t,
                                    const float* __restrict__ cos_t, int n, int log2chunk,
                                    const float2* __restrict__ tw_g, float2* __restrict__ out) {
  extern __shared__ float2 sm[];
  const int chunk = 1 << log2chunk, pitch = n + 1, rings = g.rings();
  float2* rows = sm;
  float2* tw = rows + chunk * pitch;
  for (int k = threadIdx.x; k < n / 2; k += blockDim.x) tw[k] = tw_g[k];
  const int t0 = per_block * blockIdx.x;
  const RingSource src = ring_source(images, samples, t0, per_block == 2 && t0 + 1 < count, g);
  float2* o = out + std::size_t(blockIdx.x) * rings * (per_block == 1 ? ring_values(n) : n);
  for (int q0 = 0; q0 < rings; q0 += chunk) {
    const int qn = min(chunk, rings - q0);
    __syncthreads(); // the previous chunk has been written out
    transform_ring_chunk(rows, pitch, q0, qn, g, sin_t, cos_t, src, n, tw);
    if (per_block == 1 && hermitian_rings(n)) { // a real reference: the Hermitian half (see reference_rings)
      const int half = n / 2;
      for (int e = threadIdx.x; e < qn * half; e += blockDim.x) {
        const int q = e / half, w = e - q * half;
        const float2* r = rows + q * pitch;
        o[std::size_t(q0 + q) * half + w] = w == 0 ? make_float2(r[0].x, r[1].x) : r[2 * w];
      }
      continue;
    }
    for (int e = threadIdx.x; e < qn * n; e += blockDim.x) {
      const int q = e / n, k = e - q * n;
      o[std::size_t(q0 + q) * n + k] = rows[q * pitch + k];
    }
  }
}

// Two trajectories per block (2·blockIdx.x and the next one, which may not exist).
__global__ void __launch_bounds__(1024)
    shift_step_kernel(const float* __restrict__ raw, const float2* __restrict__ ref, const float2* __restrict__ pre,
                      int x, int log2x, int radius, SubpixelMethod sub, bool first, Pose2* poses,
                      float* __restrict__ samples, align::PolarGrid g, const float* __restrict__ sin_t,
                      const float* __restrict__ cos_t, int count, const float2* __restrict__ tw_g) {
  extern __shared__ float2 sm[];
  __shared__ Pose2 inv[2];
  __shared__ float sv[64];
  __shared__ int si[64];
  const int pitch = x + 1, pixels = x * x;
  float2* data = sm;
  float2* tw = data + x * pitch;
  float* ring_w = reinterpret_cast<float*>(tw + x / 2); // when writing samples
  const int t0 = 2 * blockIdx.x;
  const bool has_b = t0 + 1 < count;
  for (int k = threadIdx.x; k < x / 2; k += blockDim.x) tw[k] = tw_g[k];
  if (samples) ring_weights(g, ring_w);
  if (threadIdx.x < 2) {
    const int t = t0 + threadIdx.x;
    inv[threadIdx.x] = t < count ? align::pose_inverse(poses[t]) : align::pose_identity();
  }
  __syncthreads();

  const float* ra = raw + std::size_t(t0) * pixels;
  const float* rb = ra + pixels;
  if (first && pre) { // the raw pair's transform, computed once for every reference
    const float2* z = pre + std::size_t(blockIdx.x) * pixels;
    for (int e = threadIdx.x; e < pixels; e += blockDim.x) data[(e >> log2x) * pitch + (e & (x - 1))] = z[e];
    __syncthreads();
  } else {
    for (int e = threadIdx.x; e < pixels; e += blockDim.x) {
      int i, j;
      tile_pixel(e, x, i, j);
      data[j * pitch + i] = align_device::pair_pixel(ra, has_b ? rb : nullptr, x, first, inv[0], inv[1], i, j);
    }
    __syncthreads();
    bf::forward(data, log2x, log2x, pitch, 1, tw);
    bf::forward(data, log2x, log2x, 1, pitch, tw);
  }

  // Y(ω) = F_R(ω)·Z(−ω)·(−1)^(kx+ky) (step 2 of docs/align_significant.md#shift-step, for both
  // trajectories); positions p and the one of −ω are handled by the same thread, with one read of
  // the real reference's spectrum (F_R(−ω) = conj F_R(ω)).
  for (int lp = threadIdx.x; lp < pixels; lp += blockDim.x) {
    const int py = lp >> log2x, px = lp & (x - 1);
    const int lq = mirror_position(lp, x, log2x);
    if (lq < lp) continue;
    const int qy = lq >> log2x, qx = lq & (x - 1);
    const int ky = bf::bit_reverse(py, log2x), kx = bf::bit_reverse(px, log2x);
    const float sign = ((kx + ky) & 1) ? -1.0f : 1.0f;
    align_device::shift_product_pair(data[py * pitch + px], data[qy * pitch + qx], ref[lp], sign, lq == lp);
  }
  __syncthreads();
  bf::inverse(data, log2x, log2x, 1, pitch, tw); // columns: every row now in natural order
  // Rows: only those the peak search and its refinement read (|dy| <= radius + 1).
  const align_device::PeakRows pr = align_device::peak_rows(x, radius);
  bf::inverse_n(data + pr.lo * pitch, x, pr.need, pitch, 1, tw);

  // Integer peaks in the disc |d| <= radius (ties: lowest linear index), as shift_peak.
  const int cx = x / 2, cy = x / 2;
  const int j0 = max(0, cy - radius), j1 = min(x - 1, cy + radius);
  const int i0 = max(0, cx - radius), i1 = min(x - 1, cx + radius);
  const int w = i1 - i0 + 1, h = j1 - j0 + 1;
  const long long r2 = static_cast<long long>(radius) * radius;
  float va = -INFINITY, vb = -INFINITY;
  int ia = INT_MAX, ib = INT_MAX;
  for (int e = threadIdx.x; e < w * h; e += blockDim.x) {
    const int i = i0 + e % w, j = j0 + e / w;
    const long long dx = i - cx, dy = j - cy;
    if (dx * dx + dy * dy > r2) continue;
    const int idx = j * x + i;
    const float2 v = data[j * pitch + i];
    keep_better(v.x, idx, va, ia);
    keep_better(v.y, idx, vb, ib);
  }
  block_argmax2(va, ia, vb, ib, sv, si);
  if (threadIdx.x < 2 && t0 + static_cast<int>(threadIdx.x) < count) {
    const int c = threadIdx.x;
    int bi = cx, bj = cy;
    const float best = sv[c];
    if (si[c] != INT_MAX && best > -INFINITY) {
      bi = si[c] % x;
      bj = si[c] / x;
    }
    auto at = [&](int a, int b) {
      return part(data[periodic_index(bj + b, x) * pitch + periodic_index(bi + a, x)], c);
    };
    float ox, oy;
    geom::refine_peak_2d(at, best, sub, ox, oy);
    const float dx = static_cast<float>(bi - cx) + ox, dy = static_cast<float>(bj - cy) + oy;
    const Pose2 pose = align::pose_compose(align::pose_translation(dx, dy), poses[t0 + c]);
    poses[t0 + c] = pose;
    inv[c] = align::pose_inverse(pose);
  }
  if (!samples) return;
  // The polar samples of W_{new pose}[raw] for the rotation step that follows: the aligned
  // images go to shared memory (A real, B imaginary), the samples to device memory.
  __syncthreads();
  for (int e = threadIdx.x; e < pixels; e += blockDim.x) {
    int i, j;
    tile_pixel(e, x, i, j);
    const float a = warp_at(ra, x, inv[0], i, j);
    const float b = has_b ? warp_at(rb, x, inv[1], i, j) : 0.0f;
    data[j * pitch + i] = make_float2(a, b);
  }
  __syncthreads();
  // Both images' neighbours come in one read each (A and B share the sample positions).
  const int per = g.rings() * g.samples;
  float* sa = samples + std::size_t(t0) * per;
  for_each_polar_sample<false>(g, 0, g.samples, sin_t, cos_t, ring_w,
                               [&](int e, int i, int j, float fx, float fy, float wgt) {
    const float2* row = data + j * pitch + i;
    const float2 p00 = row[0], p10 = row[1], p01 = row[pitch], p11 = row[pitch + 1];
    sa[e] = wgt * align::bilinear_blend(p00.x, p10.x, p01.x, p11.x, fx, fy);
    if (has_b) sa[per + e] = wgt * align::bilinear_blend(p00.y, p10.y, p01.y, p11.y, fx, fy);
  });
}

// Block (h, t): quadrant h of trajectory t's polar samples, the angles k in [⌈hS/4⌉, ⌈(h+1)S/4⌉)
// (φ in [h·90°, (h+1)·90°)), to samples + t·rings·S: the rotation step's input after a tiled
// shift step. The aligned image W_{poses[t]}[raw] is warped into shared memory on the square of
// pixels those samples read (quadrant_side() wide; only the pixels of the disc the polar grid
// reads, within r1 + 1.5 of the centre, as a sample at radius r reads neighbours less than r + √2
// away), so it never goes to device memory, and two 1024-thread blocks share an SM at 256 px.
__global__ void __launch_bounds__(kQuadrantThreads, 2)
    aligned_samples_kernel(const float* __restrict__ raw, const Pose2* __restrict__ poses, align::PolarGrid g,
                           const float* __restrict__ sin_t, const float* __restrict__ cos_t,
                           float* __restrict__ samples) {
  extern __shared__ float box[]; // then the ring weights
  __shared__ Pose2 inv;
  const int x = g.size, c = x / 2, w = quadrant_side(x), h = blockIdx.x, t = blockIdx.y, s = g.samples;
  float* ring_w = box + w * w;
  ring_weights(g, ring_w);
  // sin φ >= 0 (u >= c) in quadrants 0 and 1, cos φ >= 0 (v >= c) in 0 and 3; the margin of 2
  // covers the rounding of positions next to an axis.
  const bool u_up = h < 2, v_up = h == 0 || h == 3;
  const int i0 = u_up ? c - 2 : c + 3 - w, j0 = v_up ? c - 2 : c + 3 - w;
  const int k0 = (h * s + 3) / 4, kn = ((h + 1) * s + 3) / 4 - k0;
  if (threadIdx.x == 0) inv = align::pose_inverse(poses[t]);
  __syncthreads();
  const float* img = raw + std::size_t(t) * x * x;
  const int lim = (2 * g.last_ring + 3) * (2 * g.last_ring + 3); // the disc: 4·(dx² + dy²) <= lim
  // 8 × 4 pixels per warp (tile_pixel's order, for the gathers' locality), advanced without divisions.
  const int tiles_x = (w + 7) / 8, tiles = tiles_x * ((w + 3) / 4), warps = blockDim.x >> 5, lane = threadIdx.x & 31;
  int tile = threadIdx.x >> 5, tx = tile % tiles_x, ty = tile / tiles_x;
  for (; tile < tiles; tile += warps) {
    const int bi = tx * 8 + (lane & 7), bj = ty * 4 + (lane >> 3), dx = i0 + bi - c, dy = j0 + bj - c;
    if (bi < w && bj < w && 4 * (dx * dx + dy * dy) <= lim) box[bj * w + bi] = warp_at(img, x, inv, i0 + bi, j0 + bj);
    tx += warps;
    while (tx >= tiles_x) {
      tx -= tiles_x;
      ++ty;
    }
  }
  __syncthreads();
  float* out = samples + std::size_t(t) * g.rings() * s;
  for_each_polar_sample<true>(g, k0, kn, sin_t, cos_t, ring_w,
                              [&](int e, int i, int j, float fx, float fy, float wgt) {
    const float* p = box + (j - j0) * w + (i - i0);
    out[e] = wgt * align::bilinear_blend(p[0], p[1], p[w], p[w + 1], fx, fy);
  });
}

/// H(ω) += Σ_q G_R(q, ω)·Z_q(−ω) over the rings q < qn of a chunk, ring by ring onto H (so
/// rotation_step_kernel's chunks and rotation_spectra_kernel's one call give the same H bit for
/// bit). `ref`: the chunk's G_R as reference_rings lays them out (ring_values() per ring); z(q, p):
/// Z_q at position p. In the Hermitian half layout a thread owns position 2w (frequencies
/// 0 <= k < n/2) and the position of −k (odd), so one read of G_R serves both (G_R(−k) = conj
/// G_R(k): the reference's rings are real); w = 0 owns positions 0 and 1, the frequencies 0 and n/2
/// (each its own negative, G_R real). Otherwise a thread owns a position.
template <class Z>
__device__ void add_ring_sum(float2* hsum, const float2* __restrict__ ref, int n, int qn, Z z) {
  if (!hermitian_rings(n)) {
    for (int p = threadIdx.x; p < n; p += blockDim.x) {
      const int m = bf::mirror_of(p, n);
      float2 acc = hsum[p];
      for (int q = 0; q < qn; ++q) {
        const float2 v = bf::cmul(ref[std::size_t(q) * n + p], z(q, m));
        acc.x += v.x;
        acc.y += v.y;
      }
      hsum[p] = acc;
    }
    return;
  }
  const int half = n / 2;
  for (int w = threadIdx.x; w < half; w += blockDim.x) {
    const bool ends = w == 0;
    const int p = 2 * w, m = ends ? 1 : bf::mirror_of(p, n);
    const int zp = ends ? 0 : m, zm = ends ? 1 : p; // the positions of −k for p and m
    float2 ap = hsum[p], am = hsum[m];
    for (int q = 0; q < qn; ++q) {
      const float2 g = ref[std::size_t(q) * half + w];
      const float2 gp = ends ? make_float2(g.x, 0.0f) : g, gm = make_float2(ends ? g.y : g.x, ends ? 0.0f : -g.y);
      const float2 vp = bf::cmul(gp, z(q, zp)), vm = bf::cmul(gm, z(q, zm));
      ap.x += vp.x;
      ap.y += vp.y;
      am.x += vm.x;
      am.y += vm.y;
    }
    hsum[p] = ap;
    hsum[m] = am;
  }
}

/// ρ(k) of a ring correlation of length n (the fold of rotation_peak), component c.
__device__ float folded(const float2* r, int k, int s, int n, int c) { return part(r[k], c) + part(r[n - s + k], c); }

/// The end of a rotation step of trajectories t0, t0 + 1 from the ring sum H (bit-reversed, in
/// shared memory, complete): ρ = inverse transform, the folded argmax, refinement and pose.
__device__ void finish_rotation(float2* hsum, int n, int s, const float2* tw, SubpixelMethod sub, Pose2* poses, int t0,
                                int count, float* sv, int* si) {
  bf::inverse_n(hsum, n, 1, 0, 1, tw);
  float va = -INFINITY, vb = -INFINITY;
  int ia = INT_MAX, ib = INT_MAX;
  for (int k = threadIdx.x; k < s; k += blockDim.x) {
    keep_better(folded(hsum, k, s, n, 0), k, va, ia);
    keep_better(folded(hsum, k, s, n, 1), k, vb, ib);
  }
  block_argmax2(va, ia, vb, ib, sv, si);
  if (threadIdx.x < 2 && t0 + static_cast<int>(threadIdx.x) < count) {
    const int c = threadIdx.x;
    const int k = si[c] == INT_MAX ? 0 : si[c];
    const float theta = align::rotation_angle(k, s, folded(hsum, (k + s - 1) % s, s, n, c), folded(hsum, k, s, n, c),
                                              folded(hsum, (k + 1) % s, s, n, c), sub);
    poses[t0 + c] = align::pose_compose(align::pose_rotation(theta), poses[t0 + c]);
  }
}

__global__ void __launch_bounds__(1024)
    rotation_step_kernel(const float* __restrict__ img, const float* __restrict__ samples,
                         const float2* __restrict__ ref, align::PolarGrid g, const float* __restrict__ sin_t,
                         const float* __restrict__ cos_t, int n, int log2chunk, SubpixelMethod sub, Pose2* poses,
                         int count, const float2* __restrict__ tw_g) {
  extern __shared__ float2 sm[];
  __shared__ float sv[64];
  __shared__ int si[64];
  const int chunk = 1 << log2chunk, pitch = n + 1, rings = g.rings(), s = g.samples;
  float2* rows = sm;
  float2* hsum = rows + chunk * pitch;
  float2* tw = hsum + n;
  const int t0 = 2 * blockIdx.x;
  const RingSource src = ring_source(img, samples, t0, t0 + 1 < count, g);
  for (int k = threadIdx.x; k < n / 2; k += blockDim.x) tw[k] = tw_g[k];
  for (int p = threadIdx.x; p < n; p += blockDim.x) hsum[p] = make_float2(0, 0);

  for (int q0 = 0; q0 < rings; q0 += chunk) {
    const int qn = min(chunk, rings - q0);
    __syncthreads(); // the previous chunk has been summed
    // Samples k < S of the chunk's rings (the FFT takes k >= S as zero without reading them).
    transform_ring_chunk(rows, pitch, q0, qn, g, sin_t, cos_t, src, n, tw);
    add_ring_sum(hsum, ref + std::size_t(q0) * ring_values(n), n, qn,
                 [rows, pitch](int q, int p) { return rows[q * pitch + p]; });
  }
  __syncthreads();
  finish_rotation(hsum, n, s, tw, sub, poses, t0, count, sv, si);
}

// The rotation step from precomputed ring spectra of its pairs (ring_spectra_kernel): the ring sum
// in the same order as rotation_step_kernel, then the same inverse and peak.
__global__ void __launch_bounds__(1024)
    rotation_spectra_kernel(const float2* __restrict__ pre, const float2* __restrict__ ref, align::PolarGrid g,
                            int n, SubpixelMethod sub, Pose2* poses, int count, const float2* __restrict__ tw_g) {
  extern __shared__ float2 sm[];
  __shared__ float sv[64];
  __shared__ int si[64];
  const int rings = g.rings(), s = g.samples;
  float2* hsum = sm;
  float2* tw = hsum + n;
  const int t0 = 2 * blockIdx.x;
  for (int k = threadIdx.x; k < n / 2; k += blockDim.x) tw[k] = tw_g[k];
  for (int p = threadIdx.x; p < n; p += blockDim.x) hsum[p] = make_float2(0, 0);
  __syncthreads();
  const float2* z = pre + std::size_t(blockIdx.x) * rings * n;
  add_ring_sum(hsum, ref, n, rings, [z, n](int q, int p) { return z[std::size_t(q) * n + p]; });
  __syncthreads();
  finish_rotation(hsum, n, s, tw, sub, poses, t0, count, sv, si);
}

int threads_for(int work) { return std::max(32, std::min(512, work / 8)); }

/// The shift step holds one block per SM (its X·(X+1) complex values): up to 1024 threads, so
/// that enough warps hide the latency of the warps' scattered reads.
int shift_threads(int x) { return std::max(128, std::min(1024, x * x / 16)); }

std::size_t shift_smem(int x) { return (std::size_t(x) * (x + 1) + std::size_t(x / 2)) * sizeof(float2); }
template <class Kernel>
void allow_smem(Kernel k, std::size_t bytes) {
  FROST_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

} // namespace

bool shift_supported(int x) { return is_pow2(x) && x >= 8 && x <= kFusedShiftMaxSize; }

int ring_length(int samples) {
  // Of the smallest 2^a·5^b >= 2S for b = 0, 1, 2 (block_fft's sizes), the one with the fewest
  // passes over shared memory (b radix-5 passes and ⌈a/3⌉ radix-2 ones), then the shortest:
  // 200, 512, 800, 1600 at 32, 64, 128, 256 px (400 = 25·16 would take four passes, 512 three).
  int best = 0, best_passes = 0;
  for (int b = 0; b <= 2; ++b) {
    const int odd = b == 0 ? 1 : b == 1 ? 5 : 25;
    int n = 2 * odd, a = 1;
    while (n < 2 * samples) {
      n *= 2;
      ++a;
    }
    const int passes = b + (a + 2) / 3;
    if (best == 0 || passes < best_passes || (passes == best_passes && n < best)) {
      best = n;
      best_passes = passes;
    }
  }
  return best;
}

void upload_twiddles(int n, float2* dst, cudaStream_t s) {
  FROST_EXPECTS(n >= 2 && n % 2 == 0, "upload_twiddles: n must be even");
  std::vector<float2> tw(std::size_t(n / 2));
  for (int k = 0; k < n / 2; ++k) {
    const double a = -2.0 * M_PI * k / n;
    tw[std::size_t(k)] = make_float2(static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a)));
  }
  FROST_CUDA_CHECK(cudaMemcpyAsync(dst, tw.data(), tw.size() * sizeof(float2), cudaMemcpyHostToDevice, s));
  FROST_CUDA_CHECK(cudaStreamSynchronize(s)); // tw is a local host vector
}

void reference_spectra(const float* refs, int x, const float2* tw, float2* out, int count, cudaStream_t s) {
  if (count <= 0) return;
  FROST_EXPECTS(shift_supported(x), "fused reference_spectra: unsupported size");
  const std::size_t smem = shift_smem(x);
  allow_smem(spectra_kernel, smem);
  spectra_kernel<<<count, threads_for(x * x), smem, s>>>(refs, 1, count, x, log2_exact(x), tw, out);
  FROST_CHECK_LAUNCH();
}

void pair_spectra(const float* raw, int x, const float2* tw, float2* out, int count, cudaStream_t s) {
  if (count <= 0) return;
  FROST_EXPECTS(shift_supported(x), "fused pair_spectra: unsupported size");
  const std::size_t smem = shift_smem(x);
  allow_smem(spectra_kernel, smem);
  spectra_kernel<<<(count + 1) / 2, threads_for(x * x), smem, s>>>(raw, 2, count, x, log2_exact(x), tw, out);
  FROST_CHECK_LAUNCH();
}

void reference_rings(const float* refs, const align::PolarGrid& grid, const float* sin_table, const float* cos_table,
                     const float2* tw_ring, float2* out, int count, cudaStream_t s) {
  if (count <= 0) return;
  const int n = ring_length(grid.samples), chunk = ring_chunk(n, grid.rings());
  const std::size_t smem = rings_smem(n, chunk, false);
  allow_smem(ring_spectra_kernel, smem);
  ring_spectra_kernel<<<count, threads_for(chunk * n), smem, s>>>(refs, nullptr, 1, count, grid, sin_table, cos_table,
                                                                   n, log2_exact(chunk), tw_ring, out);
  FROST_CHECK_LAUNCH();
}

void shift_step(const float* raw, const float2* pre, const float2* ref_spectrum, const float2* tw, int x, int radius,
                SubpixelMethod subpixel, bool first, Pose2* poses, float* samples, const align::PolarGrid& grid,
                const float* sin_table, const float* cos_table, int count, cudaStream_t s) {
  if (count <= 0) return;
  FROST_EXPECTS(shift_supported(x), "fused shift_step: unsupported size");
  const std::size_t smem = shift_smem(x) + std::size_t(grid.rings()) * sizeof(float); // + the ring weights
  allow_smem(shift_step_kernel, smem);
  shift_step_kernel<<<(count + 1) / 2, shift_threads(x), smem, s>>>(raw, ref_spectrum, pre, x,
                                                                     log2_exact(x), radius,
                                                                     subpixel, first, poses, samples, grid, sin_table,
                                                                     cos_table, count, tw);
  FROST_CHECK_LAUNCH();
}

std::size_t aligned_samples_smem(int x) {
  return (std::size_t(quadrant_side(x)) * quadrant_side(x) + std::size_t(align::make_polar_grid(x).rings())) *
         sizeof(float);
}

bool aligned_samples_supported(int x) { return x >= 8 && x % 2 == 0 && aligned_samples_smem(x) <= max_block_smem(); }

void aligned_samples(const float* raw, const Pose2* poses, const align::PolarGrid& grid, const float* sin_table,
                     const float* cos_table, float* samples, int count, cudaStream_t s) {
  if (count <= 0) return;
  FROST_EXPECTS(aligned_samples_supported(grid.size), "fused aligned_samples: unsupported size");
  const std::size_t smem = aligned_samples_smem(grid.size);
  allow_smem(aligned_samples_kernel, smem);
  aligned_samples_kernel<<<dim3(4, count), kQuadrantThreads, smem, s>>>(raw, poses, grid, sin_table, cos_table,
                                                                         samples);
  FROST_CHECK_LAUNCH();
}

void pair_rings(const float* samples, const align::PolarGrid& grid, const float2* tw_ring, float2* out, int count,
                cudaStream_t s) {
  if (count <= 0) return;
  const int n = ring_length(grid.samples), chunk = ring_chunk(n, grid.rings());
  const std::size_t smem = rings_smem(n, chunk, false);
  allow_smem(ring_spectra_kernel, smem);
  ring_spectra_kernel<<<(count + 1) / 2, rotation_threads(n, chunk), smem, s>>>(
      nullptr, samples, 2, count, grid, nullptr, nullptr, n, log2_exact(chunk), tw_ring, out);
  FROST_CHECK_LAUNCH();
}

void rotation_step_from_spectra(const float2* pair_spectra, const float2* ref_rings, const align::PolarGrid& grid,
                                const float2* tw_ring, SubpixelMethod subpixel, Pose2* poses, int count,
                                cudaStream_t s) {
  if (count <= 0) return;
  const int n = ring_length(grid.samples);
  const std::size_t smem = (std::size_t(n) + std::size_t(n / 2)) * sizeof(float2);
  allow_smem(rotation_spectra_kernel, smem);
  rotation_spectra_kernel<<<(count + 1) / 2, std::min(1024, n), smem, s>>>(pair_spectra, ref_rings, grid, n,
                                                                          subpixel, poses, count, tw_ring);
  FROST_CHECK_LAUNCH();
}

void rotation_step(const float* img, const float* samples, const float2* ref_rings, const align::PolarGrid& grid,
                   const float* sin_table, const float* cos_table, const float2* tw_ring, SubpixelMethod subpixel,
                   Pose2* poses, int count, cudaStream_t s) {
  if (count <= 0) return;
  FROST_EXPECTS((img == nullptr) != (samples == nullptr), "fused rotation_step: images or samples");
  const int n = ring_length(grid.samples), chunk = ring_chunk(n, grid.rings());
  const std::size_t smem = rings_smem(n, chunk, true);
  allow_smem(rotation_step_kernel, smem);
  rotation_step_kernel<<<(count + 1) / 2, rotation_threads(n, chunk), smem, s>>>(
      img, samples, ref_rings, grid, sin_table, cos_table, n, log2_exact(chunk), subpixel, poses, count, tw_ring);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::fused_align
