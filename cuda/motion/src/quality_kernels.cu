// The quality of the sums on the device (docs/movie_align.md#quality-of-the-sums): fft::shell_sums()
// of two half spectra with the same per-element rule (fft::shell_element, fft::shell_of). Each
// thread walks a short run of one row, where the shell changes slowly, and adds its run's partial
// sums to the block's shared copy; each block adds its copy to the result once.
#include "frost/cuda/check.hpp"
#include "frost/fft/shell_sums.hpp"
#include "launch.cuh"
#include "motion_kernels.hpp"

namespace frost::cuda::motion_kernels {

namespace {

constexpr int kRun = 8;             // elements of one row per thread
constexpr int kShellThreads = 512;

template <bool Shared>
__global__ void shell_sums_kernel(const cufftComplex* __restrict__ a, const cufftComplex* __restrict__ b, index_t nx,
                                  index_t ny, int rings, double band_lo, double band_hi, double* out) {
  extern __shared__ double block_sums[];
  const long shells = fft::shell_count(rings);
  const int size = static_cast<int>(3 * shells + 2);
  double* acc = Shared ? block_sums : out;
  if (Shared) {
    for (int i = threadIdx.x; i < size; i += blockDim.x) acc[i] = 0.0;
    __syncthreads();
  }
  const index_t hx = nx / 2 + 1;
  const index_t runs_per_row = (hx + kRun - 1) / kRun, runs = runs_per_row * ny;
  for (index_t r = global_thread(); r < runs; r += grid_stride()) {
    const index_t y = r / runs_per_row, x0 = (r - y * runs_per_row) * kRun;
    const index_t x1 = x0 + kRun < hx ? x0 + kRun : hx;
    long shell = -1;
    double cross = 0, pa = 0, pb = 0, band_a = 0, band_b = 0;
    for (index_t x = x0; x < x1; ++x) {
      const fft::ShellElement e = fft::shell_element(x, y, nx, ny);
      const cufftComplex A = a[y * hx + x], B = b[y * hx + x];
      const double ar = A.x, ai = A.y, br = B.x, bi = B.y;
      const double qa = e.weight * (ar * ar + ai * ai), qb = e.weight * (br * br + bi * bi);
      const long s = fft::shell_of(e.frequency, rings);
      if (s != shell) {
        if (shell >= 0 && shell < shells) {
          atomicAdd(acc + shell, cross);
          atomicAdd(acc + shells + shell, pa);
          atomicAdd(acc + 2 * shells + shell, pb);
        }
        shell = s;
        cross = pa = pb = 0;
      }
      cross += e.weight * (ar * br + ai * bi);
      pa += qa;
      pb += qb;
      if (e.frequency >= band_lo && e.frequency <= band_hi) {
        band_a += qa;
        band_b += qb;
      }
    }
    if (shell >= 0 && shell < shells) {
      atomicAdd(acc + shell, cross);
      atomicAdd(acc + shells + shell, pa);
      atomicAdd(acc + 2 * shells + shell, pb);
    }
    if (band_a != 0.0 || band_b != 0.0) {
      atomicAdd(acc + 3 * shells, band_a);
      atomicAdd(acc + 3 * shells + 1, band_b);
    }
  }
  if (Shared) {
    __syncthreads();
    for (int i = threadIdx.x; i < size; i += blockDim.x)
      if (acc[i] != 0.0) atomicAdd(out + i, acc[i]);
  }
}

} // namespace

void shell_sums(const cufftComplex* a, const cufftComplex* b, index_t nx, index_t ny, fft::FrequencyBand band,
                double* out, cudaStream_t stream) {
  const int rings = fft::shell_rings(nx, ny);
  const std::size_t bytes = fft::shell_sums_array_size(rings) * sizeof(double);
  FROST_CUDA_CHECK(cudaMemsetAsync(out, 0, bytes, stream));
  int device = 0, sms = 0, shared_max = 0;
  FROST_CUDA_CHECK(cudaGetDevice(&device));
  FROST_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  FROST_CUDA_CHECK(cudaDeviceGetAttribute(&shared_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const index_t runs = ((nx / 2 + 1 + kRun - 1) / kRun) * ny;
  const index_t wanted = (runs + kShellThreads - 1) / kShellThreads;
  const auto blocks = static_cast<unsigned int>(wanted < 2 * sms ? (wanted < 1 ? 1 : wanted) : 2 * sms);
  if (bytes <= static_cast<std::size_t>(shared_max)) {
    FROST_CUDA_CHECK(cudaFuncSetAttribute(shell_sums_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
    shell_sums_kernel<true><<<blocks, kShellThreads, bytes, stream>>>(a, b, nx, ny, rings, band.lo, band.hi, out);
  } else { // more shells than a block's shared memory holds: add to the result directly
    shell_sums_kernel<false><<<blocks, kShellThreads, 0, stream>>>(a, b, nx, ny, rings, band.lo, band.hi, out);
  }
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::motion_kernels
