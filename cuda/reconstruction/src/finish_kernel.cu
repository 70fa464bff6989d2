// The finish kernel of the CUDA accumulator (docs/reconstruct_fourier.md#fast-mode; step 2 of
// docs/reconstruct_fourier.md#finalisation): the Friedel fold of a device cube into float half-grid
// planes, in fast mode of the blob-convolved cube (convolved on the fly, before the fold as on the
// host). Per voxel it runs recon::fold_voxel and recon::convolve_voxel (fold_math.hpp), the code of
// the host fold_into and convolve_with_blob.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frost/core/error.hpp"
#include "frost/cuda/check.hpp"
#include "insert_kernel.hpp"

namespace frost::cuda::detail {
namespace {

/// Voxel (x, y, z) of a device cube.
struct CubeLoad {
  const float* __restrict__ g;
  const float* __restrict__ w;
  int side;
  FROST_HD void operator()(int x, int y, int z, float& re, float& im, float& wt) const {
    const std::size_t i = (static_cast<std::size_t>(z) * side + y) * side + x;
    re = g[2 * i];
    im = g[2 * i + 1];
    wt = w[i];
  }
};

/// Voxel (x, y, z) of the blob-convolved cube (fast mode), computed from the cube.
struct ConvolvedLoad {
  CubeLoad cube;
  const recon::BlobTap* __restrict__ taps;
  int count;
  FROST_HD void operator()(int x, int y, int z, float& re, float& im, float& wt) const {
    recon::convolve_voxel(taps, count, x, y, z, cube.side, cube, re, im, wt);
  }
};

template <class Load>
__global__ void fold_kernel(Load load, int M, int z0, std::int64_t n, float* __restrict__ out) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int hx = M / 2 + 1, side = M + 1;
  const int xo = static_cast<int>(i % hx);
  const std::int64_t row = i / hx;
  const int y = static_cast<int>(row % side);
  const int z = z0 + static_cast<int>(row / side);
  float re, im, wt;
  recon::fold_voxel(xo, y, z, M, load, re, im, wt);
  out[2 * i] = re;
  out[2 * i + 1] = im;
  out[2 * n + i] = wt;
}

/// The same fold added into a device double half grid (the periodic fold of a float cube,
/// docs/reconstruct_fourier.md#long-sums): every voxel, written by one thread.
template <class Load>
__global__ void fold_add_kernel(Load load, int M, std::int64_t n, double* __restrict__ out) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int hx = M / 2 + 1, side = M + 1;
  const int xo = static_cast<int>(i % hx);
  const std::int64_t row = i / hx;
  float re, im, wt;
  recon::fold_voxel(xo, static_cast<int>(row % side), static_cast<int>(row / side), M, load, re, im, wt);
  out[2 * i] += re;
  out[2 * i + 1] += im;
  out[2 * n + i] += wt;
}

/// Planes [z0, z0 + nz) of a device double half grid rounded to float, in launch_fold's chunk layout.
__global__ void half_to_float_kernel(const double* __restrict__ half, std::int64_t total, std::int64_t o0,
                                     std::int64_t n, float* __restrict__ out) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[2 * i] = static_cast<float>(half[2 * (o0 + i)]);
  out[2 * i + 1] = static_cast<float>(half[2 * (o0 + i) + 1]);
  out[2 * n + i] = static_cast<float>(half[2 * total + o0 + i]);
}

unsigned blocks_for(std::int64_t n, int threads, const char* what) {
  const std::int64_t blocks = (n + threads - 1) / threads;
  if (blocks > 2147483647LL)
    FROST_THROW(ExitCode::Runtime, std::string(what) + ": " + std::to_string(n) + " voxels exceed the launch limits");
  return static_cast<unsigned>(blocks);
}

/// One thread per (y, z) of the kx = 0 plane; the first of each mirror pair in linear order
/// averages both (the host loop's order of visits; pairs are disjoint, so any order gives the
/// same values).
__global__ void kx0_average_kernel(float* __restrict__ data, float* __restrict__ weight, int M) {
  const int side = M + 1, nx = M / 2 + 1;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= side * side) return;
  const int z = i / side, y = i % side;
  const int mirror = (M - z) * side + (M - y);
  if (i > mirror) return;
  recon::average_kx0_pair(data, weight, static_cast<long long>(i) * nx, static_cast<long long>(mirror) * nx);
}

} // namespace

void launch_kx0_average(float* data, float* weight, int M, cudaStream_t stream) {
  const int n = (M + 1) * (M + 1);
  constexpr int kThreads = 256;
  kx0_average_kernel<<<(n + kThreads - 1) / kThreads, kThreads, 0, stream>>>(data, weight, M);
  FROST_CHECK_LAUNCH();
  FROST_SYNC_CHECK(stream);
}

void launch_fold(const FoldArgs& a, cudaStream_t stream) {
  const std::int64_t n = static_cast<std::int64_t>(a.nz) * (a.M + 1) * (a.M / 2 + 1);
  if (n <= 0) return;
  constexpr int kThreads = 256;
  const unsigned blocks = blocks_for(n, kThreads, "fold kernel");
  const CubeLoad cube{a.g, a.w, a.M + 1};
  if (a.taps != nullptr) {
    fold_kernel<<<blocks, kThreads, 0, stream>>>(ConvolvedLoad{cube, a.taps, a.tap_count}, a.M, a.z0, n, a.out);
  } else {
    fold_kernel<<<blocks, kThreads, 0, stream>>>(cube, a.M, a.z0, n, a.out);
  }
  FROST_CHECK_LAUNCH();
  FROST_SYNC_CHECK(stream);
}

void launch_fold_add(const FoldArgs& a, double* out, cudaStream_t stream) {
  const std::int64_t n = static_cast<std::int64_t>(a.M + 1) * (a.M + 1) * (a.M / 2 + 1);
  constexpr int kThreads = 256;
  const unsigned blocks = blocks_for(n, kThreads, "fold-add kernel");
  const CubeLoad cube{a.g, a.w, a.M + 1};
  if (a.taps != nullptr) {
    fold_add_kernel<<<blocks, kThreads, 0, stream>>>(ConvolvedLoad{cube, a.taps, a.tap_count}, a.M, n, out);
  } else {
    fold_add_kernel<<<blocks, kThreads, 0, stream>>>(cube, a.M, n, out);
  }
  FROST_CHECK_LAUNCH();
  FROST_SYNC_CHECK(stream);
}

void launch_half_to_float(const double* half, int M, int z0, int nz, float* out, cudaStream_t stream) {
  const std::int64_t plane = static_cast<std::int64_t>(M + 1) * (M / 2 + 1);
  const std::int64_t n = static_cast<std::int64_t>(nz) * plane;
  if (n <= 0) return;
  constexpr int kThreads = 256;
  half_to_float_kernel<<<blocks_for(n, kThreads, "half-to-float kernel"), kThreads, 0, stream>>>(
      half, plane * (M + 1), static_cast<std::int64_t>(z0) * plane, n, out);
  FROST_CHECK_LAUNCH();
  FROST_SYNC_CHECK(stream);
}

} // namespace frost::cuda::detail
