// Rendering on the device (movie-alignment.md §7): B-spline prefilter, bspline3 warps (constant
// shift in two separable passes as the host's warp_constant, B-spline fields per pixel as its
// warp_field), sums and the dose-weighted accumulation, all with the per-element code of
// bspline.hpp (geometry) and warp_math.hpp.
#include "frost/cuda/check.hpp"
#include "frost/geometry/bspline.hpp"
#include "frost/motion/warp_math.hpp"
#include "launch.cuh"
#include "motion_kernels.hpp"

namespace frost::cuda::motion_kernels {

namespace {

// One thread per line: the line is copied into double scratch, filtered there, written as float
// (bspline_prefilter_1d does the same on the host). `stride` steps along the line, `step` between
// lines.
__global__ void prefilter_lines_kernel(const float* in, float* out, double* scratch, index_t lines, index_t length,
                                       index_t stride, index_t step) {
  for (index_t l = global_thread(); l < lines; l += grid_stride()) {
    const index_t base = l * step;
    double* line = scratch + base;
    for (index_t k = 0; k < length; ++k) line[k * stride] = static_cast<double>(in[base + k * stride]);
    geom::bspline_prefilter_line(line, length, stride);
    for (index_t k = 0; k < length; ++k) out[base + k * stride] = static_cast<float>(line[k * stride]);
  }
}

__global__ void warp_along_x_kernel(const float* coeffs, index_t nx, index_t ny, double sx, float* along_x) {
  const index_t total = nx * ny;
  for (index_t i = global_thread(); i < total; i += grid_stride()) {
    const index_t x = i % nx, y = i / nx;
    const motion::Taps t = motion::taps_at(static_cast<double>(x) - sx, nx);
    const float* src = coeffs + y * nx;
    double v = 0.0;
    for (int k = 0; k < 4; ++k) v += t.weight[k] * static_cast<double>(src[t.index[k]]);
    along_x[i] = static_cast<float>(v);
  }
}

__global__ void warp_along_y_kernel(const float* along_x, index_t nx, index_t ny, double sy, float* out) {
  const index_t total = nx * ny;
  for (index_t i = global_thread(); i < total; i += grid_stride()) {
    const index_t x = i % nx, y = i / nx;
    const motion::Taps t = motion::taps_at(static_cast<double>(y) - sy, ny);
    const double r0 = along_x[t.index[0] * nx + x], r1 = along_x[t.index[1] * nx + x];
    const double r2 = along_x[t.index[2] * nx + x], r3 = along_x[t.index[3] * nx + x];
    out[i] = static_cast<float>(t.weight[0] * r0 + t.weight[1] * r1 + t.weight[2] * r2 + t.weight[3] * r3);
  }
}

__global__ void warp_field_kernel(const float* coeffs, index_t nx, index_t ny, const double* px, const double* py,
                                  int lx, int ly, double hx, double hy, double base_x, double base_y, float* out) {
  const index_t total = nx * ny;
  for (index_t i = global_thread(); i < total; i += grid_stride()) {
    const index_t x = i % nx, y = i / nx;
    double sx = 0, sy = 0;
    motion::spline_shift_at(px, py, lx, ly, hx, hy, static_cast<double>(x), static_cast<double>(y), base_x, base_y,
                            &sx, &sy);
    out[i] = motion::bspline_sample(coeffs, nx, ny, static_cast<double>(x) - sx, static_cast<double>(y) - sy);
  }
}

__global__ void accumulate_kernel(float* sum, const float* add, index_t n) {
  for (index_t i = global_thread(); i < n; i += grid_stride()) sum[i] += add[i];
}

__global__ void add_images_kernel(const float* a, const float* b, float* out, index_t n) {
  for (index_t i = global_thread(); i < n; i += grid_stride()) out[i] = a[i] + b[i];
}

__global__ void dose_accumulate_kernel(const cufftComplex* spectrum, const float* table, double dose, index_t n,
                                       cufftComplex* weighted, float* weight_sq) {
  for (index_t i = global_thread(); i < n; i += grid_stride()) {
    const float w = motion::dose_weight_from_table(dose, table[i]);
    const cufftComplex s = spectrum[i];
    weighted[i] = make_cuFloatComplex(weighted[i].x + w * s.x, weighted[i].y + w * s.y);
    weight_sq[i] += w * w;
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

void bspline_prefilter(const float* frame, index_t nx, index_t ny, double* scratch, float* coeffs,
                       cudaStream_t stream) {
  // Rows (lines of nx, stride 1, nx apart), then columns (lines of ny, stride nx, 1 apart) of the
  // row-filtered result, as bspline_prefilter_2d.
  prefilter_lines_kernel<<<blocks_for(ny), kThreads, 0, stream>>>(frame, coeffs, scratch, ny, nx, 1, nx);
  FROST_CHECK_LAUNCH();
  prefilter_lines_kernel<<<blocks_for(nx), kThreads, 0, stream>>>(coeffs, coeffs, scratch, nx, ny, nx, 1);
  FROST_CHECK_LAUNCH();
}

void warp_constant(const float* coeffs, index_t nx, index_t ny, double sx, double sy, float* along_x, float* out,
                   cudaStream_t stream) {
  warp_along_x_kernel<<<blocks_for(nx * ny), kThreads, 0, stream>>>(coeffs, nx, ny, sx, along_x);
  FROST_CHECK_LAUNCH();
  warp_along_y_kernel<<<blocks_for(nx * ny), kThreads, 0, stream>>>(along_x, nx, ny, sy, out);
  FROST_CHECK_LAUNCH();
}

void warp_field(const float* coeffs, index_t nx, index_t ny, const double* px, const double* py, int lx, int ly,
                double hx, double hy, double base_x, double base_y, float* out, cudaStream_t stream) {
  warp_field_kernel<<<blocks_for(nx * ny), kThreads, 0, stream>>>(coeffs, nx, ny, px, py, lx, ly, hx, hy, base_x,
                                                                  base_y, out);
  FROST_CHECK_LAUNCH();
}

void accumulate(float* sum, const float* add, index_t n, cudaStream_t stream) {
  accumulate_kernel<<<blocks_for(n), kThreads, 0, stream>>>(sum, add, n);
  FROST_CHECK_LAUNCH();
}

void add_images(const float* a, const float* b, float* out, index_t n, cudaStream_t stream) {
  add_images_kernel<<<blocks_for(n), kThreads, 0, stream>>>(a, b, out, n);
  FROST_CHECK_LAUNCH();
}

void dose_accumulate(const cufftComplex* spectrum, const float* table, double dose, index_t n,
                     cufftComplex* weighted, float* weight_sq, cudaStream_t stream) {
  dose_accumulate_kernel<<<blocks_for(n), kThreads, 0, stream>>>(spectrum, table, dose, n, weighted, weight_sq);
  FROST_CHECK_LAUNCH();
}

void dose_normalise(const cufftComplex* weighted, const float* weight_sq, double inv_pixels, index_t n,
                    cufftComplex* out, cudaStream_t stream) {
  dose_normalise_kernel<<<blocks_for(n), kThreads, 0, stream>>>(weighted, weight_sq, inv_pixels, n, out);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::motion_kernels
