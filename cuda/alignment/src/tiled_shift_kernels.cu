// The tiled shift step (alignment_tiled.hpp): the 2-D transforms of two trajectories per complex
// image split into a row kernel, a column kernel and a peak kernel. Per-element math is the fused
// steps' (block_fft.cuh, device_warp.cuh, the FROST_HD peak and pose code).
#include <algorithm>
#include <cfloat>
#include <climits>

#include "align_sizes.hpp"
#include "block_fft.cuh"
#include "device_warp.cuh"
#include "kernel_order.cuh"
#include "frost/core/error.hpp"
#include "frost/core/shape.hpp"
#include "frost/cuda/alignment_tiled.hpp"
#include "frost/cuda/check.hpp"

namespace frost::cuda::tiled_shift {
namespace {

using align::Pose2;
using geom::SubpixelMethod;
namespace bf = block_fft;
using namespace align_order;
using align_detail::is_pow2;
using align_detail::log2_exact;
using align_device::part;
using align_device::peak_rows;
using align_device::PeakRows;

constexpr unsigned kFull = 0xffffffffu;
constexpr int kStripRows = 16;   // rows per block of the row kernel
constexpr int kHalfColumns = 16; // h: a column group holds h frequencies kx and their negatives
constexpr std::size_t kMaxSmem = 200 * 1024; // dynamic shared memory a kernel may ask for
// Peak kernel: the inverse row transforms go through shared memory in chunks of at most this many
// bytes, so that kPeakBlocksPerSm blocks share an SM (one block holding all the rows left the SM
// idle at its barriers and its serial refinement), and a block has at most kMaxPeakThreads threads.
constexpr std::size_t kPeakChunkBytes = 72 * 1024;
constexpr int kPeakBlocksPerSm = 3;
constexpr int kMaxPeakThreads = 384;

int half_columns(int x) { return std::min(kHalfColumns, x / 2); }

/// How the peak kernel of an x × x correlation with search radius `radius` runs: row pairs per
/// chunk, threads per block (the multiple of 32 that spreads a chunk's radix-8 butterflies,
/// x/8 per pair, over the fewest rounds evenly) and dynamic shared memory.
struct PeakLaunch {
  int chunk_pairs, threads;
  std::size_t smem;
};
PeakLaunch peak_launch(int x, int radius) {
  const int pairs = (peak_rows(x, radius).need + 1) / 2;
  const std::size_t pair_bytes = std::size_t(x + 1) * sizeof(float2);
  const int per_chunk = std::max<int>(1, static_cast<int>(kPeakChunkBytes / pair_bytes));
  const int chunks = (pairs + per_chunk - 1) / per_chunk;
  const int cp = (pairs + chunks - 1) / chunks;
  const int items = std::max(1, cp * x / 8);
  const int rounds = (items + kMaxPeakThreads - 1) / kMaxPeakThreads;
  const int threads = ((items + rounds - 1) / rounds + 31) / 32 * 32;
  return {cp, threads, std::size_t(cp) * pair_bytes + std::size_t(x / 2) * sizeof(float2)};
}

/// Frequency kx of slot s of column group g (slots < h: h·g + s; the others their negatives, slot
/// h of group 0 holding x/2, its own negative).
__device__ inline int slot_kx(int g, int s, int h, int x) {
  if (s < h) return h * g + s;
  const int k = h * g + s - h;
  return k == 0 ? x / 2 : x - k;
}
/// The slot of −kx in the same group.
__device__ inline int slot_partner(int g, int s, int h) {
  if (g == 0 && (s == 0 || s == h)) return s;
  return s < h ? s + h : s - h;
}

// Row kernel: block (strip, pair) warps rows [strip·R, strip·R + R) of images per·pair (+ i the
// next one when per = 2) and transforms them; out[pair][c][y] (c the bit-reversed position of kx).
__global__ void __launch_bounds__(256, 5)
    rows_kernel(const float* __restrict__ imgs, int per, int count, int x, int log2x, bool first,
                const Pose2* __restrict__ poses, const float2* __restrict__ tw_g, float2* __restrict__ out) {
  extern __shared__ float2 sm[];
  __shared__ Pose2 inv[2];
  const int pitch = x + 1, log2r = __ffs(kStripRows) - 1, y0 = blockIdx.x * kStripRows, p = blockIdx.y;
  float2* rows = sm;
  float2* tw = rows + kStripRows * pitch;
  for (int k = threadIdx.x; k < x / 2; k += blockDim.x) tw[k] = tw_g[k];
  const int ta = per * p;
  const bool has_b = per == 2 && ta + 1 < count;
  if (!first && threadIdx.x < 2)
    inv[threadIdx.x] =
        threadIdx.x == 0 || has_b ? align::pose_inverse(poses[ta + threadIdx.x]) : align::pose_identity();
  __syncthreads();
  const std::size_t pixels = std::size_t(x) * x;
  const float* a_img = imgs + std::size_t(ta) * pixels;
  const float* b_img = a_img + pixels;
  for (int e = threadIdx.x; e < (x << log2r); e += blockDim.x) {
    int i, j;
    tile_pixel(e, x, i, j);
    rows[j * pitch + i] = align_device::pair_pixel(a_img, has_b ? b_img : nullptr, x, first, inv[0], inv[1], i, y0 + j);
  }
  __syncthreads();
  bf::forward(rows, log2x, log2r, pitch, 1, tw);
  float2* o = out + std::size_t(p) * pixels;
  for (int e = threadIdx.x; e < (x << log2r); e += blockDim.x) {
    const int j = e & (kStripRows - 1), c = e >> log2r;
    o[std::size_t(c) * x + y0 + j] = rows[j * pitch + c];
  }
}

// Column kernel: block (group g, pair p) holds the 2h columns of group g. Without `correlate`:
// their forward transforms go to out, tiled layout. With it:
// Y = F_R(ω)·Z(−ω)·(−1)^(kx+ky), inverse column transforms, and the rows [lo, lo + need) of both
// trajectories' row spectra (kx <= x/2) to out[t][row][kx]. Z comes from `pre` (tiled layout,
// already transformed) when non-null, else from the row kernel's `zt`.
__global__ void __launch_bounds__(512, 3)
    columns_kernel(const float2* __restrict__ zt, const float2* __restrict__ pre, const float2* __restrict__ ref,
                   int x, int log2x, int log2h, bool correlate, PeakRows pr, int count,
                   const float2* __restrict__ tw_g, float2* __restrict__ out) {
  extern __shared__ float2 sm[];
  const int h = 1 << log2h, log2c = log2h + 1, pitch = x + 1, g = blockIdx.x, p = blockIdx.y;
  const int elems = x << log2c;
  float2* cols = sm;
  float2* tw = cols + (2 * h) * pitch;
  for (int k = threadIdx.x; k < x / 2; k += blockDim.x) tw[k] = tw_g[k];
  const std::size_t pixels = std::size_t(x) * x;
  const std::size_t group = std::size_t(g) * elems; // this group's values in a tiled spectrum
  if (pre) {
    const float2* z = pre + std::size_t(p) * pixels + group;
    for (int e = threadIdx.x; e < elems; e += blockDim.x) cols[(e >> log2x) * pitch + (e & (x - 1))] = z[e];
    __syncthreads();
  } else {
    const float2* z = zt + std::size_t(p) * pixels;
    for (int e = threadIdx.x; e < elems; e += blockDim.x) {
      const int s = e >> log2x, y = e & (x - 1);
      cols[s * pitch + y] = z[std::size_t(bf::bit_reverse(slot_kx(g, s, h, x), log2x)) * x + y];
    }
    __syncthreads();
    bf::forward(cols, log2x, log2c, pitch, 1, tw);
  }
  if (!correlate) {
    float2* o = out + std::size_t(p) * pixels + group;
    for (int e = threadIdx.x; e < elems; e += blockDim.x) o[e] = cols[(e >> log2x) * pitch + (e & (x - 1))];
    return;
  }
  // The product; a value and the one at −ω are handled by the same thread (both are read
  // before either is written), with one read of the real reference's F_R(ω) (F_R(−ω) = conj).
  const float2* rf = ref + group;
  for (int e = threadIdx.x; e < elems; e += blockDim.x) {
    const int s = e >> log2x, r = e & (x - 1);
    const int ps = slot_partner(g, s, h), pr_ = bf::mirror_bit_reversed(r, log2x);
    const int eq = (ps << log2x) + pr_;
    if (eq < e) continue;
    const int kx = slot_kx(g, s, h, x), ky = bf::bit_reverse(r, log2x);
    const float sign = ((kx + ky) & 1) ? -1.0f : 1.0f; // −ω has the same parity (x even)
    align_device::shift_product_pair(cols[s * pitch + r], cols[ps * pitch + pr_], rf[e], sign, eq == e);
  }
  __syncthreads();
  bf::inverse(cols, log2x, log2c, pitch, 1, tw); // every column now over y in natural order
  // W(kx, y) = W_A + i·W_B with W_A, W_B Hermitian in kx: W_A = (W(kx) + conj W(−kx)) / 2,
  // W_B = (W(kx) − conj W(−kx)) / 2i.
  const int ta = 2 * p, hx = x / 2 + 1, ns = h + (g == 0 ? 1 : 0);
  const bool has_b = ta + 1 < count;
  float2* oa = out + std::size_t(ta) * pr.need * hx;
  float2* ob = oa + std::size_t(pr.need) * hx;
  for (int e = threadIdx.x; e < ns * pr.need; e += blockDim.x) {
    const int s = e % ns, row = e / ns, y = pr.lo + row;
    const float2 w = cols[s * pitch + y], wm = cols[slot_partner(g, s, h) * pitch + y];
    const int kx = slot_kx(g, s, h, x);
    oa[row * hx + kx] = make_float2(0.5f * (w.x + wm.x), 0.5f * (w.y - wm.y));
    if (has_b) ob[row * hx + kx] = make_float2(0.5f * (w.y + wm.y), 0.5f * (wm.x - w.x));
  }
}

/// Block-wide (value, index) argmax; the result in sv[0], si[0].
__device__ void block_argmax(float v, int i, float* sv, int* si) {
  for (int off = 16; off > 0; off >>= 1) {
    const float ov = __shfl_down_sync(kFull, v, off);
    const int oi = __shfl_down_sync(kFull, i, off);
    keep_better(ov, oi, v, i);
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = (blockDim.x + 31) / 32;
  if (lane == 0) {
    sv[warp] = v;
    si[warp] = i;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int w = 1; w < warps; ++w) keep_better(sv[w], si[w], sv[0], si[0]);
  __syncthreads();
}

/// Pixel i of row `row` (of [lo, lo + need)) of trajectory rows w, the inverse transform of its
/// Hermitian row spectrum summed directly by one warp (every lane gets it): the peak refinement's
/// few neighbours, which the chunk that held the peak may no longer hold.
__device__ float row_pixel(const float2* __restrict__ w, int hx, int x, int row, int i) {
  const int lane = threadIdx.x % 32;
  float acc = 0;
  for (int kx = lane; kx < x; kx += 32) {
    const float2 u = kx <= x / 2 ? w[row * hx + kx] : bf::conj_of(w[row * hx + x - kx]);
    float sn, cs;
    sincospif(2.0f * static_cast<float>((kx * i) & (x - 1)) / static_cast<float>(x), &sn, &cs);
    acc = __fmaf_rn(u.x, cs, __fmaf_rn(-u.y, sn, acc)); // + Re(u · e^{+2πi·kx·i/x})
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(kFull, acc, off);
  return acc;
}

// Peak kernel: one block per trajectory, the rows [lo, lo + need) in chunks of `cp` row pairs.
// Rows 2m and 2m + 1 go through one complex inverse transform X = W(row 2m) + i·W(row 2m + 1),
// done as conj(forward(conj X)) so that the input is written in natural order (coalesced reads, no
// bank conflicts) and the output is read at bit-reversed positions: pixel i of row 2m is
// data[brev i].x, of row 2m + 1 −data[brev i].y. The refinement's neighbours come from row_pixel().
__global__ void __launch_bounds__(kMaxPeakThreads, kPeakBlocksPerSm)
    peak_kernel(const float2* __restrict__ wrows, int x, int log2x, int radius, PeakRows pr, int cp, SubpixelMethod sub,
                Pose2* poses, const float2* __restrict__ tw_g) {
  extern __shared__ float2 sm[];
  __shared__ float sv[32];
  __shared__ int si[32];
  __shared__ float nb[9];
  const int pitch = x + 1, hx = x / 2 + 1, pairs = (pr.need + 1) / 2, t = blockIdx.x;
  float2* data = sm;
  float2* tw = data + cp * pitch;
  for (int k = threadIdx.x; k < x / 2; k += blockDim.x) tw[k] = tw_g[k];
  const float2* w = wrows + std::size_t(t) * pr.need * hx;

  // Integer peak in the disc |d| <= radius (ties: lowest linear index, in any chunk order), as
  // shift_peak.
  const int cx = x / 2, cy = x / 2;
  const int j0 = max(0, cy - radius), j1 = min(x - 1, cy + radius);
  const int i0 = max(0, cx - radius), i1 = min(x - 1, cx + radius);
  const long long r2 = static_cast<long long>(radius) * radius;
  float bv = -INFINITY;
  int bi = INT_MAX;
  for (int m0 = 0; m0 < pairs; m0 += cp) {
    const int np = min(cp, pairs - m0);
    for (int e = threadIdx.x; e < (np << log2x); e += blockDim.x) {
      const int m = e >> log2x, kx = e & (x - 1);
      float2 v[2];
#pragma unroll
      for (int c = 0; c < 2; ++c) {
        const int row = 2 * (m0 + m) + c;
        if (row >= pr.need) v[c] = make_float2(0, 0);
        else if (kx <= x / 2) v[c] = w[row * hx + kx];
        else v[c] = bf::conj_of(w[row * hx + x - kx]);
      }
      data[m * pitch + kx] = make_float2(v[0].x - v[1].y, -(v[0].y + v[1].x)); // conj X
    }
    __syncthreads();
    bf::forward_n(data, x, np, pitch, 1, tw);
    // This chunk's rows within j0..j1, positions in order (pixel i = brev of the position).
    const int ja = max(j0, pr.lo + 2 * m0), jb = min(j1, pr.lo + 2 * (m0 + np) - 1);
    for (int e = threadIdx.x; e < ((jb - ja + 1) << log2x); e += blockDim.x) {
      const int j = ja + (e >> log2x), pos = e & (x - 1), i = bf::bit_reverse(pos, log2x);
      const long long dx = i - cx, dy = j - cy;
      if (i < i0 || i > i1 || dx * dx + dy * dy > r2) continue;
      const int row = j - pr.lo - 2 * m0;
      const float2 v = data[(row >> 1) * pitch + pos];
      keep_better((row & 1) ? -v.y : v.x, j * x + i, bv, bi);
    }
    __syncthreads(); // the next chunk overwrites data
  }
  block_argmax(bv, bi, sv, si);
  int pi = cx, pj = cy;
  const float best = sv[0];
  if (si[0] != INT_MAX && best > -INFINITY) {
    pi = si[0] % x;
    pj = si[0] / x;
  }
  // The 3 × 3 neighbourhood the refinement may read (centre: the peak value itself), one warp each.
  if (sub != SubpixelMethod::None)
    for (int q = threadIdx.x / 32; q < 9; q += blockDim.x / 32) {
      const int a = q % 3 - 1, b = q / 3 - 1;
      if (a == 0 && b == 0) continue;
      const int j = static_cast<int>(periodic_index(pj + b, x)), i = static_cast<int>(periodic_index(pi + a, x));
      const float v = row_pixel(w, hx, x, j - pr.lo, i);
      if (threadIdx.x % 32 == 0) nb[q] = v;
    }
  __syncthreads();
  if (threadIdx.x != 0) return;
  auto at = [&](int a, int b) { return a == 0 && b == 0 ? best : nb[(b + 1) * 3 + a + 1]; };
  float ox, oy;
  geom::refine_peak_2d(at, best, sub, ox, oy);
  const float dx = static_cast<float>(pi - cx) + ox, dy = static_cast<float>(pj - cy) + oy;
  poses[t] = align::pose_compose(align::pose_translation(dx, dy), poses[t]);
}

std::size_t strip_smem(int x) { return (std::size_t(kStripRows) * (x + 1) + std::size_t(x / 2)) * sizeof(float2); }
std::size_t columns_smem(int x) {
  return (std::size_t(2 * half_columns(x)) * (x + 1) + std::size_t(x / 2)) * sizeof(float2);
}

template <class Kernel>
void allow_smem(Kernel k, std::size_t bytes) {
  FROST_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

void launch_rows(const float* imgs, int per, int count, int x, bool first, const Pose2* poses, const float2* tw,
                 float2* zt, cudaStream_t s) {
  const std::size_t smem = strip_smem(x);
  allow_smem(rows_kernel, smem);
  const dim3 grid(x / kStripRows, (count + per - 1) / per);
  rows_kernel<<<grid, 256, smem, s>>>(imgs, per, count, x, log2_exact(x), first, poses, tw, zt);
  FROST_CHECK_LAUNCH();
}

void launch_columns(const float2* zt, const float2* pre, const float2* ref, int x, bool correlate, PeakRows pr,
                    int count, int pairs, const float2* tw, float2* out, cudaStream_t s) {
  const std::size_t smem = columns_smem(x);
  allow_smem(columns_kernel, smem);
  const int h = half_columns(x);
  const dim3 grid(x / (2 * h), pairs);
  columns_kernel<<<grid, 512, smem, s>>>(zt, pre, ref, x, log2_exact(x), log2_exact(h), correlate, pr, count, tw,
                                         out);
  FROST_CHECK_LAUNCH();
}

} // namespace

bool supported(int x, int radius) {
  if (!is_pow2(x) || x < 2 * kStripRows || radius < 0) return false;
  return strip_smem(x) <= kMaxSmem && columns_smem(x) <= kMaxSmem && peak_launch(x, radius).smem <= kMaxSmem;
}

std::size_t column_scratch(int x) { return std::size_t(x) * x; }

std::size_t row_scratch(int x, int radius) { return std::size_t(peak_rows(x, radius).need) * (x / 2 + 1); }

void spectra(const float* imgs, int per, int count, int x, const float2* tw, float2* scratch, int scratch_pairs,
             float2* out, cudaStream_t s) {
  FROST_EXPECTS(supported(x, 0) && (per == 1 || per == 2) && scratch_pairs > 0, "tiled spectra: bad arguments");
  const std::size_t pixels = std::size_t(x) * x;
  for (int k0 = 0; k0 * per < count; k0 += scratch_pairs) {
    const int n = std::min(count - k0 * per, scratch_pairs * per), pairs = (n + per - 1) / per;
    launch_rows(imgs + std::size_t(k0) * per * pixels, per, n, x, true, nullptr, tw, scratch, s);
    launch_columns(scratch, nullptr, nullptr, x, false, {0, x}, n, pairs, tw, out + std::size_t(k0) * pixels, s);
  }
}

void shift_step(const float* raw, const float2* pre, const float2* ref, const float2* tw,
                int x, int radius, SubpixelMethod subpixel, bool first, Pose2* poses, float2* columns, float2* rows,
                int count, cudaStream_t s) {
  if (count <= 0) return;
  FROST_EXPECTS(supported(x, radius), "tiled shift_step: unsupported size or radius");
  const bool from_pre = first && pre;
  if (!from_pre) launch_rows(raw, 2, count, x, first, poses, tw, columns, s);
  const PeakRows pr = peak_rows(x, radius);
  launch_columns(columns, from_pre ? pre : nullptr, ref, x, true, pr, count, (count + 1) / 2, tw, rows, s);
  const PeakLaunch pl = peak_launch(x, radius);
  allow_smem(peak_kernel, pl.smem);
  peak_kernel<<<count, pl.threads, pl.smem, s>>>(rows, x, log2_exact(x), radius, pr, pl.chunk_pairs, subpixel, poses,
                                                 tw);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::tiled_shift
