// Frame spectra on the device (docs/movie_align.md#working-sizes-and-the-low-pass-filter): the transform
// window and the Fourier crop + low-pass + normalisation, with the index rules of correlation_math.hpp.
#include "frost/cuda/check.hpp"
#include "frost/motion/correlation_math.hpp"
#include "launch.cuh"
#include "motion_kernels.hpp"

namespace frost::cuda::motion_kernels {

namespace {

__global__ void copy_windows_kernel(const float* frames, index_t nx, index_t ny, index_t x0, index_t y0, index_t mx,
                                    index_t my, int count, float* out) {
  const index_t total = mx * my * count;
  for (index_t i = global_thread(); i < total; i += grid_stride()) {
    const index_t x = i % mx, y = (i / mx) % my, t = i / (mx * my);
    out[i] = frames[t * nx * ny + (y0 + y) * nx + (x0 + x)];
  }
}

/// Blocks over (k_x, k_y) of a cropped spectrum; blockIdx.z strides over the spectra.
__global__ void crop_filter_kernel(const cufftComplex* full, index_t mx, index_t my, int count, const float* filter,
                                   float scale, cufftComplex* out, index_t cx, index_t cy) {
  const index_t hx = cx / 2 + 1, full_hx = mx / 2 + 1;
  const index_t x = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t y = static_cast<index_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x >= hx || y >= cy) return;
  const bool zeroed = motion::crop_zeroed(x, y);
  const index_t source = motion::crop_source_row(y, cy, my) * full_hx + x;
  // As crop_half_spectrum: in·(H·scale), the factor formed in float first.
  const float f = filter != nullptr ? filter[y * hx + x] * scale : scale;
  for (int t = static_cast<int>(blockIdx.z); t < count; t += static_cast<int>(gridDim.z)) {
    const index_t i = (static_cast<index_t>(t) * cy + y) * hx + x;
    if (zeroed) {
      out[i] = make_cuFloatComplex(0.f, 0.f);
      continue;
    }
    const cufftComplex v = full[static_cast<index_t>(t) * full_hx * my + source];
    out[i] = make_cuFloatComplex(v.x * f, v.y * f);
  }
}

} // namespace

void copy_windows(const float* frames, index_t nx, index_t ny, index_t x0, index_t y0, index_t mx, index_t my,
                  int count, float* out, cudaStream_t stream) {
  copy_windows_kernel<<<blocks_for(mx * my * count), kThreads, 0, stream>>>(frames, nx, ny, x0, y0, mx, my, count, out);
  FROST_CHECK_LAUNCH();
}

void crop_filter(const cufftComplex* full, index_t mx, index_t my, int count, const float* filter, float scale,
                 cufftComplex* out, index_t cx, index_t cy, cudaStream_t stream, const CropFilterLaunch& launch) {
  if (count <= 0) return;
  const dim3 block = block_2d(launch.block_x, launch.block_y, "crop + filter");
  const dim3 grid = grid_2d(cx / 2 + 1, cy, count, launch.block_x, launch.block_y);
  crop_filter_kernel<<<grid, block, 0, stream>>>(full, mx, my, count, filter, scale, out, cx, cy);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::motion_kernels
