#pragma once
// Launchers of the movie-alignment kernels (the .cu files of this folder). Host-compiler code
// calls these; every launcher checks its launch (FROST_CHECK_LAUNCH) and returns at once (work is
// asynchronous on `stream`). Complex data are cufftComplex (layout of std::complex<float>).
#include <cuda_runtime.h>
#include <cufft.h>

#include <cstdint>

#include "frost/core/shape.hpp"
#include "frost/fft/shell_sums.hpp"
#include "frost/cuda/motion.hpp"

namespace frost::cuda::motion_kernels {

/// One located correlation maximum: the integer offset from the centre, the value there and the
/// 3x3 neighbourhood (periodic), i.e. motion::PeakWindow as the device writes it.
struct DevicePeak {
  int ix, iy;
  float value;
  float v[9];
};

/// Decodes `rows` stored rows (row_bytes each, at `src`) of a movie of nx-wide, ny-tall frames,
/// starting at row `row0` of the whole movie (frame row0 / ny), into `frames` (row r of the movie
/// at frames + r·nx): io::mrc_pixel, then motion::corrected_pixel with the raw-size dark and gain
/// (nullptr: none). The lowest frame index (counted from the first uploaded frame) holding a
/// NaN or Inf pixel is atomicMin'ed into *first_non_finite.
void decode_stored_rows(const unsigned char* src, int mode, bool swap, bool mode0_unsigned, index_t row_bytes,
                        index_t nx, index_t ny, index_t row0, index_t rows, const float* dark, const float* gain,
                        float* frames, int* first_non_finite, cudaStream_t stream);

/// Renders `raw_count` EER raw frames, one thread each: raw frame r's stream is
/// streams[offsets[r] .. offsets[r+1]) (the buffer padded by 8 bytes after the last); its electrons are added (atomicAdd of 1) to fraction
/// r / group of `frames` (grid_pixels floats each, zeroed before) at io::eer_grid_index. A frame
/// whose codes do not end at the last sensor pixel is taken back out (the same electrons added
/// as −1) and flagged in corrupt[r], so it contributes nothing, as on the host.
void render_eer_frames(const unsigned char* streams, const std::uint64_t* offsets, index_t raw_count, index_t group,
                       io::EerCodes codes, index_t sensor_width, index_t sensor_pixels, int upsampling,
                       index_t grid_pixels, float* frames, int* corrupt, cudaStream_t stream);

/// motion::corrected_pixel over `count` frames of `pixels` in place (dark, gain: nullptr = none).
void correct_frames(float* frames, index_t count, index_t pixels, const float* dark, const float* gain,
                    cudaStream_t stream);

/// Copies the centred mx x my window (origin x0, y0) of `count` frames of nx x ny into a dense
/// mx x my x count stack (the transform window when the frame is cropped).
void copy_windows(const float* frames, index_t nx, index_t ny, index_t x0, index_t y0, index_t mx, index_t my,
                  int count, float* out, cudaStream_t stream);

/// crop_half_spectrum() of `count` half spectra (mx/2+1) x my into (cx/2+1) x cy, times
/// filter·scale (filter nullptr: 1), with the k_x = 0 column and k_y = 0 row zeroed.
/// frost::Error(Usage) for a launch shape outside 1..1024 threads.
void crop_filter(const cufftComplex* full, index_t mx, index_t my, int count, const float* filter, float scale,
                 cufftComplex* out, index_t cx, index_t cy, cudaStream_t stream, const CropFilterLaunch& launch = {});

/// product[k] = spectra[i_k]·conj(spectra[j_k])·(-1)^(kx+ky) for `count` item pairs (i_k, j_k)
/// (int2 array in device memory) of half spectra of `half_x` x `rows` elements.
/// frost::Error(Usage) for a launch shape outside 1..1024 threads or a tile not in {1, 2, 4, 8}.
void pair_products(const cufftComplex* spectra, const int2* pairs, int count, index_t half_x, index_t rows,
                   cufftComplex* product, cudaStream_t stream, const CorrelateLaunch& launch = {});

/// One DevicePeak per centred cx x cy map of `count` maps: the maximum over the search disc of
/// `radius` (correlation_math.hpp rules; first in row-major order on ties) and its 3x3 window.
void find_peaks(const float* maps, index_t cx, index_t cy, int count, double radius, DevicePeak* out,
                cudaStream_t stream);

/// fill_patch_stack() of `patches` patches at once: stack item (k·N + t) of p x p is the sum over
/// f in W(t) (window of `average`) of frame f read at (corner_k + (u, v) + offset_f), clamped to
/// the frame. corners: int2 per patch; offsets: int2 per frame (round(d_f)); all in device memory.
void fill_patch_stacks(const float* frames, index_t nx, index_t ny, int frames_count, const int2* offsets,
                       int average, const int2* corners, int patches, index_t p, float* stacks, cudaStream_t stream);

/// One frame of a render batch as the warp kernel sees it (the host's FrameShift reduced to
/// numbers): kind, the constant shift, or the spline planes (offset `plane` into the batch's
/// plane arrays) with their grid, and the frame's dose for the dose-weighted sum.
struct RenderFrame {
  enum Kind : int { Copy = 0, Constant = 1, Spline = 2 };
  int kind;
  int lx, ly;
  double sx, sy;                  ///< constant shift (Constant)
  double hx, hy, base_x, base_y;  ///< spline grid and base shift (Spline)
  long long plane;                ///< offset of this frame's ly·lx planes (Spline)
  double dose;                    ///< frame_dose() of the frame (dose weighting)
};

/// out[k] = transpose of in[k] for `count` row-major w x h images (out[k] is h x w: element
/// (x, y) of in[k] goes to out[k][x·h + y]); 32x32 shared-memory tiles, both sides coalesced.
void transpose_frames(const float* in, index_t w, index_t h, int count, float* out, cudaStream_t stream);

/// In-place cubic B-spline prefilter (bspline_prefilter_line_streamed) of `count` images of
/// `frame_stride` floats, each holding `lines` lines of `length` samples stored side by side:
/// line l of image k starts at data[k·frame_stride + l] and steps by `stride`. One thread per
/// line, consecutive threads on consecutive lines (coalesced); the causal pass goes to `scratch`
/// (doubles, same layout).
void prefilter_lines(float* data, double* scratch, index_t lines, index_t length, index_t stride, int count,
                     index_t frame_stride, cudaStream_t stream);

/// Warp and sum of `count` consecutive frames (nx x ny each, `raw` and `coeffs` frame after
/// frame; frames[k] describes frame k, first_parity the parity of the absolute index of frame 0):
/// per pixel the frames in order, each warped as the host does (Copy: the raw pixel; Constant:
/// the separable two-pass sum of warp_constant; Spline: spline_shift_at + bspline_sample), added
/// to even/odd (by parity; both nullptr: no halves) and its raw pixel to `unaligned` (nullptr:
/// none); `aligned` (nullptr: not kept) receives the warped frames.
void warp_sum(const float* raw, const float* coeffs, index_t nx, index_t ny, int count, const RenderFrame* frames,
              int first_parity, const double* planes_x, const double* planes_y, float* even, float* odd,
              float* unaligned, float* aligned, cudaStream_t stream);

/// out[i] = a[i] + b[i] for n floats.
void add_images(const float* a, const float* b, float* out, index_t n, cudaStream_t stream);

/// half_exposure_inverse() of an nx x ny frame on the device ((nx/2+1) x ny floats, element by
/// element with half_exposure_inverse_at(), warp_math.hpp).
void exposure_table(index_t nx, index_t ny, double pixel_size, float* table, cudaStream_t stream);

/// Dose-weighted accumulation of `count` frame spectra (n half-spectrum elements each, frame
/// after frame), per element in frame order: w = dose_weight_from_table(frames[k].dose, table[i]);
/// weighted[i] += w·spectrum_k[i]; weight_sq[i] += w².
void dose_accumulate(const cufftComplex* spectra, int count, const RenderFrame* frames, const float* table, index_t n,
                     cufftComplex* weighted, float* weight_sq, cudaStream_t stream);
/// out[i] = weighted[i]·(1/(nx·ny))/sqrt(weight_sq[i]) (DoseWeightedSum::result before its C2R).
void dose_normalise(const cufftComplex* weighted, const float* weight_sq, double inv_pixels, index_t n,
                    cufftComplex* out, cudaStream_t stream);

/// fft::shell_sums() of two half spectra (nx/2+1 by ny) into `out` (device memory,
/// fft::shell_sums_array_size() doubles in fft::shell_sums_from_array()'s layout; zeroed here
/// first), with the same per-element rule. The sums are added with atomics in a varying order
/// (doubles: results vary near 1e-16 relative).
void shell_sums(const cufftComplex* a, const cufftComplex* b, index_t nx, index_t ny, fft::FrequencyBand band,
                double* out, cudaStream_t stream);

} // namespace frost::cuda::motion_kernels
