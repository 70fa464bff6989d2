#pragma once
// Launchers of the movie-alignment kernels (the .cu files of this folder). Host-compiler code
// calls these; every launcher checks its launch (FROST_CHECK_LAUNCH) and returns at once (work is
// asynchronous on `stream`). Complex data are cufftComplex (layout of std::complex<float>).
#include <cuda_runtime.h>
#include <cufft.h>

#include <cstdint>

#include "frost/core/shape.hpp"

namespace frost::cuda::motion_kernels {

/// One located correlation maximum: the integer offset from the centre, the value there and the
/// 3x3 neighbourhood (periodic), i.e. motion::PeakWindow as the device writes it.
struct DevicePeak {
  int ix, iy;
  float value;
  float v[9];
};

/// Copies the centred mx x my window (origin x0, y0) of `count` frames of nx x ny into a dense
/// mx x my x count stack (the transform window of §5.2 when the frame is cropped).
void copy_windows(const float* frames, index_t nx, index_t ny, index_t x0, index_t y0, index_t mx, index_t my,
                  int count, float* out, cudaStream_t stream);

/// crop_half_spectrum() of `count` half spectra (mx/2+1) x my into (cx/2+1) x cy, times
/// filter·scale (filter nullptr: 1), with the k_x = 0 column and k_y = 0 row zeroed.
void crop_filter(const cufftComplex* full, index_t mx, index_t my, int count, const float* filter, float scale,
                 cufftComplex* out, index_t cx, index_t cy, cudaStream_t stream);

/// product[k] = spectra[i_k]·conj(spectra[j_k])·(-1)^(kx+ky) for `count` item pairs (i_k, j_k)
/// (int2 array in device memory) of half spectra of `half_x` x `rows` elements.
void pair_products(const cufftComplex* spectra, const int2* pairs, int count, index_t half_x, index_t rows,
                   cufftComplex* product, cudaStream_t stream);

/// One DevicePeak per centred cx x cy map of `count` maps: the maximum over the search disc of
/// `radius` (correlation_math.hpp rules; first in row-major order on ties) and its 3x3 window.
void find_peaks(const float* maps, index_t cx, index_t cy, int count, double radius, DevicePeak* out,
                cudaStream_t stream);

/// fill_patch_stack() of `patches` patches at once: stack item (k·N + t) of p x p is the sum over
/// f in W(t) (window of `average`) of frame f read at (corner_k + (u, v) + offset_f), clamped to
/// the frame. corners: int2 per patch; offsets: int2 per frame (round(d_f)); all in device memory.
void fill_patch_stacks(const float* frames, index_t nx, index_t ny, int frames_count, const int2* offsets,
                       int average, const int2* corners, int patches, index_t p, float* stacks, cudaStream_t stream);

/// bspline_coefficients_2d() of one nx x ny frame: rows, then columns, each line in double
/// (`scratch` holds nx·ny doubles), written to `coeffs` (may not alias `frame`).
void bspline_prefilter(const float* frame, index_t nx, index_t ny, double* scratch, float* coeffs,
                       cudaStream_t stream);

/// Constant-shift bspline3 warp in two separable passes (the host's warp_constant): along x into
/// `along_x`, then along y into `out`.
void warp_constant(const float* coeffs, index_t nx, index_t ny, double sx, double sy, float* along_x, float* out,
                   cudaStream_t stream);

/// B-spline field warp: per pixel the shift spline_shift_at() from the time-folded control
/// planes (device arrays of ly·lx doubles) plus `base`, then bspline_sample() at x − s.
void warp_field(const float* coeffs, index_t nx, index_t ny, const double* px, const double* py, int lx, int ly,
                double hx, double hy, double base_x, double base_y, float* out, cudaStream_t stream);

/// sum[i] += add[i] for n floats.
void accumulate(float* sum, const float* add, index_t n, cudaStream_t stream);
/// out[i] = a[i] + b[i] for n floats.
void add_images(const float* a, const float* b, float* out, index_t n, cudaStream_t stream);

/// Dose-weighted accumulation of one frame's spectrum (n half-spectrum elements):
/// w = dose_weight_from_table(dose, table[i]); weighted[i] += w·spectrum[i]; weight_sq[i] += w².
void dose_accumulate(const cufftComplex* spectrum, const float* table, double dose, index_t n,
                     cufftComplex* weighted, float* weight_sq, cudaStream_t stream);
/// out[i] = weighted[i]·(1/(nx·ny))/sqrt(weight_sq[i]) (DoseWeightedSum::result before its C2R).
void dose_normalise(const cufftComplex* weighted, const float* weight_sq, double inv_pixels, index_t n,
                    cufftComplex* out, cudaStream_t stream);

} // namespace frost::cuda::motion_kernels
