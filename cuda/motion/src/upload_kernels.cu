// Stored frames decoded on the device (docs/movie_align.md#movie-formats; "Upload" in
// docs/movie_align.md#the-cuda-backend): the file's bytes of a chunk of rows become float pixels with
// io::mrc_pixel (decode_mrc_rows's per-element rule), then dark and gain with motion::corrected_pixel
// (correct_frame's), so the frames are bit for bit those the host reader produces.
#include "frost/cuda/check.hpp"
#include "frost/io/mrc_pixel.hpp"
#include "frost/motion/frame_correction.hpp"
#include "launch.cuh"
#include "motion_kernels.hpp"

namespace frost::cuda::motion_kernels {

namespace {

__global__ void decode_stored_rows_kernel(const unsigned char* __restrict__ src, int mode, bool swap,
                                          bool mode0_unsigned, index_t row_bytes, index_t nx, index_t ny, index_t row0,
                                          index_t rows, const float* __restrict__ dark, const float* __restrict__ gain,
                                          float* __restrict__ frames, int* __restrict__ first_non_finite) {
  const index_t total = rows * nx;
  for (index_t e = global_thread(); e < total; e += grid_stride()) {
    const index_t r = e / nx, x = e - r * nx;
    const index_t row = row0 + r;
    const float v = io::mrc_pixel(mode, src + r * row_bytes, x, swap, mode0_unsigned);
    if (!isfinite(v)) atomicMin(first_non_finite, static_cast<int>(row / ny)); // the host reader's check
    frames[row * nx + x] = motion::corrected_pixel(v, dark, gain, (row % ny) * nx + x);
  }
}

} // namespace

void decode_stored_rows(const unsigned char* src, int mode, bool swap, bool mode0_unsigned, index_t row_bytes,
                        index_t nx, index_t ny, index_t row0, index_t rows, const float* dark, const float* gain,
                        float* frames, int* first_non_finite, cudaStream_t stream) {
  decode_stored_rows_kernel<<<blocks_for(rows * nx), kThreads, 0, stream>>>(src, mode, swap, mode0_unsigned, row_bytes,
                                                                            nx, ny, row0, rows, dark, gain, frames,
                                                                            first_non_finite);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::motion_kernels
