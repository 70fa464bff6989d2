// Kernels of the CUDA aligner (docs/align_significant.md#cuda-backend). Every per-element operation
// is the FROST_HD function the CPU estimator calls (pair_aligner.cpp), so both paths run the same
// arithmetic; reductions use fixed tree orders (no atomics) and the tie rules of
// docs/align_significant.md#shift-step and #rotation-step.
#include <cfloat>
#include <climits>

#include "frost/core/shape.hpp"
#include "frost/cuda/alignment_kernels.hpp"
#include "frost/core/error.hpp"
#include "frost/cuda/check.hpp"
#include "device_warp.cuh"
#include "kernel_order.cuh"

namespace frost::cuda::align_kernels {
namespace {

using align::Pose2;
using geom::SubpixelMethod;
using namespace align_order;

constexpr int kThreads = 256;

int blocks_for(long long n) { return static_cast<int>((n + kThreads - 1) / kThreads); }

__global__ void init_poses_kernel(Pose2* poses, int count) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < count) poses[t] = align::pose_identity();
}

// grid: (pixel blocks, trajectories); the pose is inverted once per block.
__global__ void warp_kernel(const float* __restrict__ src, const Pose2* __restrict__ poses, float* __restrict__ dst,
                            int x) {
  __shared__ Pose2 inv;
  const int t = blockIdx.y;
  if (threadIdx.x == 0) inv = align::pose_inverse(poses[t]);
  __syncthreads();
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= x * x) return;
  const std::size_t off = std::size_t(t) * x * x;
  int i, j;
  tile_pixel(p, x, i, j);
  dst[off + std::size_t(j) * x + i] = align_device::warp_at(src + off, x, inv, i, j);
}

__global__ void polar_kernel(const float* __restrict__ img, align::PolarGrid g, int ring_length,
                             const float* __restrict__ sin_t, const float* __restrict__ cos_t, float* __restrict__ out) {
  const int t = blockIdx.y;
  const int n = g.rings() * g.samples;
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= n) return;
  const int q = e / g.samples, k = e % g.samples;
  out[(std::size_t(t) * g.rings() + q) * ring_length + k] =
      align::polar_sample(img + std::size_t(t) * g.size * g.size, g, g.first_ring + q, sin_t[k], cos_t[k]);
}

// out may be in (in place).
__global__ void shift_product_kernel(const float2* __restrict__ ref, const float2* in, float2* out, int x) {
  const int hx = x / 2 + 1;
  const int n = hx * x;
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= n) return;
  const std::size_t at = std::size_t(blockIdx.y) * n + e;
  const float2 d = in[at], r = ref[e];
  float qr, qi;
  align::shift_product(r.x, r.y, d.x, d.y, e % hx, e / hx, qr, qi);
  out[at] = make_float2(qr, qi);
}

/// Block-wide (value, index) argmax in shared memory, fixed tree order; result in v[0], i[0].
__device__ void block_argmax(float* v, int* i) {
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (static_cast<int>(threadIdx.x) < stride) {
      const int o = threadIdx.x + stride;
      keep_better(v[o], i[o], v[threadIdx.x], i[threadIdx.x]);
    }
    __syncthreads();
  }
}

// One block per trajectory.
__global__ void shift_peak_kernel(const float* __restrict__ corr, int x, int radius, SubpixelMethod sub, Pose2* poses,
                                  float2* shifts) {
  __shared__ float sv[kThreads];
  __shared__ int si[kThreads];
  const int t = blockIdx.x;
  const float* c = corr + std::size_t(t) * x * x;
  const int cx = x / 2, cy = x / 2;
  const int j0 = max(0, cy - radius), j1 = min(x - 1, cy + radius);
  const int i0 = max(0, cx - radius), i1 = min(x - 1, cx + radius);
  const int w = i1 - i0 + 1, h = j1 - j0 + 1;
  const long long r2 = static_cast<long long>(radius) * radius;
  float bv = -FLT_MAX;
  int bi = INT_MAX;
  bool any = false;
  for (int e = threadIdx.x; e < w * h; e += blockDim.x) {
    const int i = i0 + e % w, j = j0 + e / w;
    const long long dx = i - cx, dy = j - cy;
    if (dx * dx + dy * dy > r2) continue;
    const int idx = j * x + i;
    const float v = c[idx];
    if (!any || better(v, idx, bv, bi)) {
      bv = v;
      bi = idx;
      any = true;
    }
  }
  if (!any) {
    bv = -INFINITY;
    bi = INT_MAX;
  }
  sv[threadIdx.x] = bv;
  si[threadIdx.x] = bi;
  __syncthreads();
  block_argmax(sv, si);
  if (threadIdx.x != 0) return;
  int best_i = cx, best_j = cy;
  float best = sv[0];
  if (si[0] != INT_MAX && best > -INFINITY) {
    best_i = si[0] % x;
    best_j = si[0] / x;
  }
  auto at = [&](int i, int j) {
    return c[std::size_t(periodic_index(j, x)) * x + std::size_t(periodic_index(i, x))];
  };
  float ox, oy;
  geom::refine_peak_2d([&](int a, int b) { return at(best_i + a, best_j + b); }, best, sub, ox, oy);
  const float dx = static_cast<float>(best_i - cx) + ox;
  const float dy = static_cast<float>(best_j - cy) + oy;
  poses[t] = align::pose_compose(align::pose_translation(dx, dy), poses[t]);
  if (shifts) shifts[t] = make_float2(dx, dy);
}

// grid: (frequency blocks, trajectories)
__global__ void ring_sum_kernel(const float2* __restrict__ ref, const float2* __restrict__ spec,
                                float2* __restrict__ sums, int rings, int half) {
  const int t = blockIdx.y;
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= half) return;
  const float2* d = spec + std::size_t(t) * rings * half;
  float re = 0, im = 0;
  for (int q = 0; q < rings; ++q) {
    const float2 a = ref[std::size_t(q) * half + w], b = d[std::size_t(q) * half + w];
    re += a.x * b.x + a.y * b.y;
    im += a.y * b.x - a.x * b.y;
  }
  sums[std::size_t(t) * half + w] = make_float2(re, im);
}

/// ρ(k) of a ring correlation of length n (rotation_peak's fold).
__device__ float ring_correlation(const float* r, int k, int s, int n) { return n == s ? r[k] : r[k] + r[n - s + k]; }

__global__ void rotation_peak_kernel(const float* __restrict__ rho, int s, int n, SubpixelMethod sub, Pose2* poses,
                                     float* angles) {
  __shared__ float sv[kThreads];
  __shared__ int si[kThreads];
  const int t = blockIdx.x;
  const float* r = rho + std::size_t(t) * n;
  float bv = -INFINITY;
  int bi = INT_MAX;
  bool any = false;
  for (int k = threadIdx.x; k < s; k += blockDim.x) {
    const float v = ring_correlation(r, k, s, n);
    if (!any || better(v, k, bv, bi)) {
      bv = v;
      bi = k;
      any = true;
    }
  }
  sv[threadIdx.x] = bv;
  si[threadIdx.x] = bi;
  __syncthreads();
  block_argmax(sv, si);
  if (threadIdx.x != 0) return;
  const int best_k = si[0] == INT_MAX ? 0 : si[0];
  const float c0 = ring_correlation(r, best_k, s, n), cm = ring_correlation(r, (best_k + s - 1) % s, s, n),
              cp = ring_correlation(r, (best_k + 1) % s, s, n);
  const float theta = align::rotation_angle(best_k, s, cm, c0, cp, sub);
  poses[t] = align::pose_compose(align::pose_rotation(theta), poses[t]);
  if (angles) angles[t] = theta;
}

/// Block-wide sum of three doubles, fixed tree order; results in a[0], b[0], c[0].
__device__ void block_sum3(double* a, double* b, double* c) {
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (static_cast<int>(threadIdx.x) < stride) {
      a[threadIdx.x] += a[threadIdx.x + stride];
      b[threadIdx.x] += b[threadIdx.x + stride];
      c[threadIdx.x] += c[threadIdx.x + stride];
    }
    __syncthreads();
  }
}

__device__ void mean_stddev(double s, double s2, int n, double& mean, double& stddev) {
  mean = s / double(n);
  const double var = s2 / double(n) - mean * mean;
  stddev = var > 0 ? sqrt(var) : 0.0;
}

// One block per image; ref == nullptr: statistics only. With poses, image t is W_{poses[t]}[img[t]]
// (x × x), computed on the fly.
__global__ void __launch_bounds__(kThreads, 8)
    moments_kernel(const float* __restrict__ ref, const double* __restrict__ ref_stats, const float* __restrict__ img,
                   int n, double* stats, float* cc, const Pose2* __restrict__ poses, int x) {
  __shared__ double s1[kThreads], s2[kThreads], sc[kThreads];
  __shared__ Pose2 inv;
  const float* p = img + std::size_t(blockIdx.x) * n;
  if (poses && threadIdx.x == 0) inv = align::pose_inverse(poses[blockIdx.x]);
  __syncthreads();
  double a = 0, b = 0, c = 0;
  for (int e = threadIdx.x; e < n; e += blockDim.x) {
    double v;
    if (poses) {
      int i, j;
      tile_pixel(e, x, i, j);
      v = align_device::warp_at(p, x, inv, i, j);
      if (ref) c += double(ref[j * x + i]) * v;
    } else {
      v = p[e];
      if (ref) c += double(ref[e]) * v;
    }
    a += v;
    b += v * v;
  }
  s1[threadIdx.x] = a;
  s2[threadIdx.x] = b;
  sc[threadIdx.x] = c;
  __syncthreads();
  block_sum3(s1, s2, sc);
  if (threadIdx.x != 0) return;
  double mean, stddev;
  mean_stddev(s1[0], s2[0], n, mean, stddev);
  if (stats) {
    stats[2 * blockIdx.x] = mean;
    stats[2 * blockIdx.x + 1] = stddev;
  }
  if (cc) {
    const double rm = ref_stats[0], rs = ref_stats[1];
    cc[blockIdx.x] = (stddev == 0 || rs == 0)
                         ? 0.0f
                         : static_cast<float>((sc[0] - double(n) * rm * mean) / (double(n) * rs * stddev));
  }
}

__global__ void choose_kernel(const float* __restrict__ cc, const Pose2* __restrict__ poses, int half,
                              align::PairResult* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const int pick = cc[half + i] > cc[i] ? half + i : i; // ties keep rotation-first
  align::PairResult r;
  r.cc = cc[pick];
  r.pose = poses[pick];
  r.flip = 0;
  out[i] = r;
}

} // namespace

void init_poses(Pose2* poses, int count, cudaStream_t s) {
  if (count <= 0) return;
  init_poses_kernel<<<blocks_for(count), kThreads, 0, s>>>(poses, count);
  FROST_CHECK_LAUNCH();
}

void warp(const float* src, const Pose2* poses, float* dst, int x, int count, cudaStream_t s) {
  if (count <= 0) return;
  warp_kernel<<<dim3(blocks_for(static_cast<long long>(x) * x), count), kThreads, 0, s>>>(src, poses, dst, x);
  FROST_CHECK_LAUNCH();
}

void polar(const float* img, const align::PolarGrid& grid, int ring_length, const float* sin_table,
           const float* cos_table, float* out, int count, cudaStream_t s) {
  if (count <= 0) return;
  FROST_EXPECTS(ring_length >= grid.samples, "polar: ring_length >= S");
  polar_kernel<<<dim3(blocks_for(static_cast<long long>(grid.rings()) * grid.samples), count), kThreads, 0, s>>>(
      img, grid, ring_length, sin_table, cos_table, out);
  FROST_CHECK_LAUNCH();
}

void shift_product(const float2* ref_spec, const float2* in, float2* out, int x, int count, cudaStream_t s) {
  if (count <= 0) return;
  shift_product_kernel<<<dim3(blocks_for(static_cast<long long>(x / 2 + 1) * x), count), kThreads, 0, s>>>(ref_spec,
                                                                                                         in, out, x);
  FROST_CHECK_LAUNCH();
}

void shift_peak(const float* corr, int x, int radius, SubpixelMethod subpixel, Pose2* poses, float2* shifts, int count,
                cudaStream_t s) {
  if (count <= 0) return;
  shift_peak_kernel<<<count, kThreads, 0, s>>>(corr, x, radius, subpixel, poses, shifts);
  FROST_CHECK_LAUNCH();
}

void ring_sum(const float2* ref_polar, const float2* spec, float2* sums, int rings, int half, int count,
              cudaStream_t s) {
  if (count <= 0) return;
  ring_sum_kernel<<<dim3(blocks_for(half), count), kThreads, 0, s>>>(ref_polar, spec, sums, rings, half);
  FROST_CHECK_LAUNCH();
}

void rotation_peak(const float* rho, int samples, int ring_length, SubpixelMethod subpixel, Pose2* poses, float* angles,
                   int count, cudaStream_t s) {
  if (count <= 0) return;
  // Between S and 2S the folded lags would overlap: only N = S or N >= 2S is a circular correlation.
  FROST_EXPECTS(ring_length == samples || ring_length >= 2 * samples, "rotation_peak: ring_length is S or >= 2S");
  rotation_peak_kernel<<<count, kThreads, 0, s>>>(rho, samples, ring_length, subpixel, poses, angles);
  FROST_CHECK_LAUNCH();
}

void statistics(const float* img, int pixels, double* stats, int count, cudaStream_t s) {
  if (count <= 0) return;
  moments_kernel<<<count, kThreads, 0, s>>>(nullptr, nullptr, img, pixels, stats, nullptr, nullptr, 0);
  FROST_CHECK_LAUNCH();
}

void correlation(const float* ref, const double* ref_stats, const float* img, int pixels, float* cc, int count,
                 cudaStream_t s) {
  if (count <= 0) return;
  moments_kernel<<<count, kThreads, 0, s>>>(ref, ref_stats, img, pixels, nullptr, cc, nullptr, 0);
  FROST_CHECK_LAUNCH();
}

void correlation_warped(const float* ref, const double* ref_stats, const float* raw, const Pose2* poses, int x,
                        float* cc, int count, cudaStream_t s) {
  if (count <= 0) return;
  moments_kernel<<<count, kThreads, 0, s>>>(ref, ref_stats, raw, x * x, nullptr, cc, poses, x);
  FROST_CHECK_LAUNCH();
}

void choose_order(const float* cc, const Pose2* poses, int half, align::PairResult* out, int count, cudaStream_t s) {
  if (count <= 0) return;
  choose_kernel<<<blocks_for(count), kThreads, 0, s>>>(cc, poses, half, out, count);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::align_kernels
