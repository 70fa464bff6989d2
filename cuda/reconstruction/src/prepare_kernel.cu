// Device sample preparation (--fftOnGPU): pad kernel, batched cuFFT R2C (by the accumulator),
// crop kernel. Both kernels call the FROST_HD per-pixel code the CPU preparer runs
// (sample_math.hpp), so the samples differ from the CPU's by the FFT's rounding only.
#include "prepare_kernel.hpp"

#include "frost/cuda/check.hpp"
#include "frost/reconstruction/sample_math.hpp"

namespace frost::cuda::detail {
namespace {

__global__ void pad_kernel(const float* __restrict__ images, int count, int N, int P, float* __restrict__ padded) {
  const long long plane = static_cast<long long>(P) * P;
  const long long total = plane * count;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int n = static_cast<int>(i / plane);
    const int py = static_cast<int>((i / P) % P), px = static_cast<int>(i % P);
    const int x = recon::padded_source(px, N, P), y = recon::padded_source(py, N, P);
    padded[i] = x >= 0 && y >= 0 ? images[(static_cast<long long>(n) * N + y) * N + x] : 0.0f;
  }
}

__global__ void crop_kernel(const recon::Cf* __restrict__ spectra, const double* __restrict__ shifts,
                            const float* __restrict__ gf, CropArgs a, recon::Cf* __restrict__ samples) {
  const long long plane = static_cast<long long>(a.fx) * a.fy;
  const long long total = plane * a.count;
  const int hx = a.P / 2 + 1, half = a.M / 2;
  const double scale = 1.0 / (double(a.P) * a.P);
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int n = static_cast<int>(i / plane);
    const int row = static_cast<int>((i / a.fx) % a.fy), kx = static_cast<int>(i % a.fx);
    const int ky = row - half;
    const recon::Cf* src = spectra + (static_cast<long long>(n) * a.P + periodic_index(ky, a.P)) * hx;
    double rx_re, rx_im, ry_re, ry_im;
    recon::shift_ramp(kx, shifts[2 * n], a.P, scale, rx_re, rx_im);
    recon::shift_ramp(ky, shifts[2 * n + 1], a.P, 1.0, ry_re, ry_im);
    recon::Cf v = recon::sample_pixel(src, kx, ky, a.limit, rx_re, rx_im, ry_re, ry_im);
    if (gf) { // as the CPU: the float sample times the float factor
      const float g = gf[i];
      v.re *= g;
      v.im *= g;
    }
    samples[i] = v;
  }
}

unsigned blocks_for(long long total, int threads) {
  const long long b = (total + threads - 1) / threads;
  return static_cast<unsigned>(b < 65536 * 16 ? b : 65536 * 16);
}

} // namespace

void launch_pad_images(const float* images, int count, int N, int P, float* padded, cudaStream_t stream) {
  const long long total = static_cast<long long>(P) * P * count;
  if (total <= 0) return;
  pad_kernel<<<blocks_for(total, 256), 256, 0, stream>>>(images, count, N, P, padded);
  FROST_CHECK_LAUNCH();
}

void launch_crop_spectra(const recon::Cf* spectra, const double* shifts, const float* gf, const CropArgs& args,
                         recon::Cf* samples, cudaStream_t stream) {
  const long long total = static_cast<long long>(args.fx) * args.fy * args.count;
  if (total <= 0) return;
  crop_kernel<<<blocks_for(total, 256), 256, 0, stream>>>(spectra, shifts, gf, args, samples);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::detail
