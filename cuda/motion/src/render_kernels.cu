// Rendering on the device (docs/movie_align.md#warping-and-summing): the B-spline prefilter of a
// batch of frames (tiled transposes so that every line filter is one thread per line on coalesced
// memory), a fused warp + sum kernel (per pixel, the batch's frames in frame order, so each sum
// gets the host's float additions), and the batched dose-weighted accumulation, all with the
// per-element code of bspline.hpp (geometry) and warp_math.hpp.
#include "frost/cuda/check.hpp"
#include "frost/geometry/bspline.hpp"
#include "frost/motion/warp_math.hpp"
#include "launch.cuh"
#include "motion_kernels.hpp"

namespace frost::cuda::motion_kernels {

namespace {

constexpr int kTile = 32;
constexpr int kTileRows = 8;

__global__ void transpose_kernel(const float* __restrict__ in, index_t w, index_t h, float* __restrict__ out) {
  __shared__ float tile[kTile][kTile + 1];
  const index_t frame = static_cast<index_t>(blockIdx.z) * w * h;
  const index_t x0 = static_cast<index_t>(blockIdx.x) * kTile, y0 = static_cast<index_t>(blockIdx.y) * kTile;
  for (int j = threadIdx.y; j < kTile; j += kTileRows) {
    const index_t x = x0 + threadIdx.x, y = y0 + j;
    if (x < w && y < h) tile[j][threadIdx.x] = in[frame + y * w + x];
  }
  __syncthreads();
  // out is h wide and w tall: element (y, x) of out at x·h + y.
  for (int j = threadIdx.y; j < kTile; j += kTileRows) {
    const index_t y = y0 + threadIdx.x, x = x0 + j;
    if (x < w && y < h) out[frame + x * h + y] = tile[threadIdx.x][j];
  }
}

__global__ void prefilter_lines_kernel(float* data, double* scratch, index_t lines, index_t length, index_t stride,
                                       int count, index_t frame_stride) {
  const index_t total = lines * count;
  for (index_t t = global_thread(); t < total; t += grid_stride()) {
    const index_t k = t / lines, l = t - k * lines;
    const index_t base = k * frame_stride + l;
    geom::bspline_prefilter_line_streamed(data + base, scratch + base, data + base, length, stride);
  }
}

// The host's warp_constant at one pixel: four rows summed along x (rounded to float, as its
// along_x image), then combined along y.
__device__ inline float constant_sample(const float* coeffs, index_t nx, const motion::Taps& tx,
                                        const motion::Taps& ty) {
  float r[4];
  for (int j = 0; j < 4; ++j) {
    const float* src = coeffs + ty.index[j] * nx;
    double v = 0.0;
    for (int i = 0; i < 4; ++i) v += tx.weight[i] * static_cast<double>(src[tx.index[i]]);
    r[j] = static_cast<float>(v);
  }
  return static_cast<float>(ty.weight[0] * r[0] + ty.weight[1] * r[1] + ty.weight[2] * r[2] + ty.weight[3] * r[3]);
}

__global__ void warp_sum_kernel(const float* __restrict__ raw, const float* __restrict__ coeffs, index_t nx,
                                index_t ny, int count, const RenderFrame* __restrict__ frames, int first_parity,
                                const double* __restrict__ planes_x, const double* __restrict__ planes_y,
                                float* even, float* odd, float* unaligned, float* aligned) {
  const index_t n = nx * ny;
  for (index_t i = global_thread(); i < n; i += grid_stride()) {
    const index_t x = i % nx, y = i / nx;
    const double xd = static_cast<double>(x), yd = static_cast<double>(y);
    float e = even ? even[i] : 0.f, o = odd ? odd[i] : 0.f, u = unaligned ? unaligned[i] : 0.f;
    for (int k = 0; k < count; ++k) {
      const RenderFrame f = frames[k];
      const index_t at = static_cast<index_t>(k) * n + i;
      const float r = raw[at];
      float v = r; // a zero shift copies the frame (warp_frame)
      if (f.kind == RenderFrame::Constant) {
        v = constant_sample(coeffs + static_cast<index_t>(k) * n, nx, motion::taps_at(xd - f.sx, nx),
                            motion::taps_at(yd - f.sy, ny));
      } else if (f.kind == RenderFrame::Spline) {
        double sx = 0, sy = 0;
        motion::spline_shift_at(planes_x + f.plane, planes_y + f.plane, f.lx, f.ly, f.hx, f.hy, xd, yd, f.base_x,
                                f.base_y, &sx, &sy);
        v = motion::bspline_sample(coeffs + static_cast<index_t>(k) * n, nx, ny, xd - sx, yd - sy);
      }
      if (even) {
        if (((first_parity + k) & 1) == 0) e += v;
        else o += v;
      }
      if (unaligned) u += r;
      if (aligned) aligned[at] = v;
    }
    if (even) {
      even[i] = e;
      odd[i] = o;
    }
    if (unaligned) unaligned[i] = u;
  }
}

__global__ void exposure_table_kernel(index_t nx, index_t ny, double pixel_size, float* table) {
  const index_t hx = nx / 2 + 1, total = hx * ny;
  for (index_t i = global_thread(); i < total; i += grid_stride()) {
    const index_t jy = i / hx, jx = i - jy * hx;
    table[i] = motion::half_exposure_inverse_at(jx, jy, nx, ny, pixel_size);
  }
}

__global__ void add_images_kernel(const float* a, const float* b, float* out, index_t n) {
  for (index_t i = global_thread(); i < n; i += grid_stride()) out[i] = a[i] + b[i];
}

__global__ void dose_accumulate_kernel(const cufftComplex* __restrict__ spectra, int count,
                                       const RenderFrame* __restrict__ frames, const float* __restrict__ table,
                                       index_t n, cufftComplex* weighted, float* weight_sq) {
  for (index_t i = global_thread(); i < n; i += grid_stride()) {
    cufftComplex acc = weighted[i];
    float sq = weight_sq[i];
    const float h = table[i];
    for (int k = 0; k < count; ++k) {
      const float w = motion::dose_weight_from_table(frames[k].dose, h);
      const cufftComplex s = spectra[static_cast<index_t>(k) * n + i];
      acc = make_cuFloatComplex(acc.x + w * s.x, acc.y + w * s.y);
      sq += w * w;
    }
    weighted[i] = acc;
    weight_sq[i] = sq;
  }
}

__global__ void dose_normalise_kernel(const cufftComplex* weighted, const float* weight_sq, double inv_pixels,
                                      index_t n, cufftComplex* out) {
  for (index_t i = global_thread(); i < n; i += grid_stride()) {
    const float f = static_cast<float>(inv_pixels / sqrt(static_cast<double>(weight_sq[i])));
    out[i] = make_cuFloatComplex(weighted[i].x * f, weighted[i].y * f);
  }
}

} // namespace

void transpose_frames(const float* in, index_t w, index_t h, int count, float* out, cudaStream_t stream) {
  const dim3 block(kTile, kTileRows);
  const dim3 grid(static_cast<unsigned int>((w + kTile - 1) / kTile), static_cast<unsigned int>((h + kTile - 1) / kTile),
                  static_cast<unsigned int>(count));
  transpose_kernel<<<grid, block, 0, stream>>>(in, w, h, out);
  FROST_CHECK_LAUNCH();
}

void prefilter_lines(float* data, double* scratch, index_t lines, index_t length, index_t stride, int count,
                     index_t frame_stride, cudaStream_t stream) {
  // Small blocks: the lines are few (one frame: a few thousand), so spread them over every SM.
  constexpr int threads = 64;
  const index_t total = lines * count;
  const auto blocks = static_cast<unsigned int>((total + threads - 1) / threads);
  prefilter_lines_kernel<<<blocks, threads, 0, stream>>>(data, scratch, lines, length, stride, count, frame_stride);
  FROST_CHECK_LAUNCH();
}

void warp_sum(const float* raw, const float* coeffs, index_t nx, index_t ny, int count, const RenderFrame* frames,
              int first_parity, const double* planes_x, const double* planes_y, float* even, float* odd,
              float* unaligned, float* aligned, cudaStream_t stream) {
  warp_sum_kernel<<<blocks_for(nx * ny), kThreads, 0, stream>>>(raw, coeffs, nx, ny, count, frames, first_parity,
                                                                planes_x, planes_y, even, odd, unaligned, aligned);
  FROST_CHECK_LAUNCH();
}

void exposure_table(index_t nx, index_t ny, double pixel_size, float* table, cudaStream_t stream) {
  exposure_table_kernel<<<blocks_for((nx / 2 + 1) * ny), kThreads, 0, stream>>>(nx, ny, pixel_size, table);
  FROST_CHECK_LAUNCH();
}

void add_images(const float* a, const float* b, float* out, index_t n, cudaStream_t stream) {
  add_images_kernel<<<blocks_for(n), kThreads, 0, stream>>>(a, b, out, n);
  FROST_CHECK_LAUNCH();
}

void dose_accumulate(const cufftComplex* spectra, int count, const RenderFrame* frames, const float* table, index_t n,
                     cufftComplex* weighted, float* weight_sq, cudaStream_t stream) {
  dose_accumulate_kernel<<<blocks_for(n), kThreads, 0, stream>>>(spectra, count, frames, table, n, weighted,
                                                                 weight_sq);
  FROST_CHECK_LAUNCH();
}

void dose_normalise(const cufftComplex* weighted, const float* weight_sq, double inv_pixels, index_t n,
                    cufftComplex* out, cudaStream_t stream) {
  dose_normalise_kernel<<<blocks_for(n), kThreads, 0, stream>>>(weighted, weight_sq, inv_pixels, n, out);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::motion_kernels
