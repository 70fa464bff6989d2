// Stored frames and EER raw frames decoded on the device (docs/movie_align.md#movie-formats; "Upload" in
// docs/movie_align.md#the-cuda-backend): the file's bytes of a chunk of rows become float pixels with
// io::mrc_pixel (decode_mrc_rows's per-element rule), then dark and gain with motion::corrected_pixel
// (correct_frame's), so the frames are bit for bit those the host reader produces. EER raw frames
// are walked with io::for_each_eer_event and placed with io::eer_grid_index, the host decoder's rule.
#include <algorithm>
#include <cstdint>

#include "frost/cuda/check.hpp"
#include "frost/io/eer_stream.hpp"
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

/// The bits of one stream, read in aligned 32-bit words through the read-only cache: a refill is
/// one load where EerBitReader makes up to seven byte loads, and a raw frame's walk is a chain of
/// such loads. The same has/take contract; the buffer holds 8 bytes of padding after the last
/// stream, so the word after a stream's end can always be loaded (its bits are never taken).
class StreamWords {
public:
  __device__ StreamWords(const unsigned char* data, std::size_t bytes) {
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    words_ = reinterpret_cast<const std::uint32_t*>(address & ~std::uintptr_t{3});
    const int skip = static_cast<int>(address & 3u) * 8; // bytes of the previous stream
    window_ = static_cast<std::uint64_t>(__ldg(words_++)) >> skip;
    count_ = 32 - skip;
    left_ = static_cast<std::int64_t>(bytes) * 8;
  }
  __device__ bool has(int n) {
    if (count_ < n) {
      window_ |= static_cast<std::uint64_t>(__ldg(words_++)) << count_;
      count_ += 32;
    }
    return left_ >= n;
  }
  __device__ std::uint32_t take(int n) {
    const auto v = static_cast<std::uint32_t>(window_ & ((std::uint64_t{1} << n) - 1));
    window_ >>= n;
    count_ -= n;
    left_ -= n;
    return v;
  }

private:
  const std::uint32_t* words_;
  std::uint64_t window_;
  int count_;
  std::int64_t left_; ///< bits of the stream not yet taken
};

/// One thread per raw frame: the decode is a sequential walk of its bit stream; the atomics go to
/// a grid of millions of pixels, so they rarely meet.
__global__ void render_eer_frames_kernel(const unsigned char* __restrict__ streams,
                                         const std::uint64_t* __restrict__ offsets, index_t raw_count, index_t group,
                                         io::EerCodes codes, index_t sensor_width, index_t sensor_pixels,
                                         int upsampling, index_t grid_pixels, float* __restrict__ frames,
                                         int* __restrict__ corrupt) {
  const index_t r = global_thread();
  if (r >= raw_count) return;
  float* grid = frames + (r / group) * grid_pixels;
  const unsigned char* data = streams + offsets[r];
  const auto bytes = static_cast<std::size_t>(offsets[r + 1] - offsets[r]);
  float weight = 1.0f;
  auto add = [&](std::uint32_t position, std::uint32_t symbol) {
    atomicAdd(grid + io::eer_grid_index(position, symbol, sensor_width, codes.symbol_bits, upsampling), weight);
  };
  StreamWords bits(data, bytes);
  if (io::decode_eer_codes(bits, codes, sensor_pixels, add)) return;
  corrupt[r] = 1;
  weight = -1.0f; // the same electrons again, taken back out
  StreamWords again(data, bytes);
  io::decode_eer_codes(again, codes, sensor_pixels, add);
}

__global__ void correct_frames_kernel(float* __restrict__ frames, index_t total, index_t pixels,
                                      const float* __restrict__ dark, const float* __restrict__ gain) {
  for (index_t e = global_thread(); e < total; e += grid_stride())
    frames[e] = motion::corrected_pixel(frames[e], dark, gain, e % pixels);
}

} // namespace

void render_eer_frames(const unsigned char* streams, const std::uint64_t* offsets, index_t raw_count, index_t group,
                       io::EerCodes codes, index_t sensor_width, index_t sensor_pixels, int upsampling,
                       index_t grid_pixels, float* frames, int* corrupt, cudaStream_t stream) {
  if (raw_count < 1) return;
  // Each thread is a sequential walk, bound by latency: spread the walks over every SM, several
  // per SM, with few lanes per warp (the lanes' loads go to different streams and their branches
  // differ), rather than packing 32 walks into each of a few warps.
  int device = 0, sms = 1;
  FROST_CUDA_CHECK(cudaGetDevice(&device));
  FROST_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const index_t per_block = std::min<index_t>(32, std::max<index_t>(1, raw_count / (8 * static_cast<index_t>(sms))));
  const auto blocks = static_cast<unsigned int>((raw_count + per_block - 1) / per_block);
  render_eer_frames_kernel<<<blocks, static_cast<unsigned int>(per_block), 0, stream>>>(streams, offsets, raw_count, group, codes, sensor_width,
                                                               sensor_pixels, upsampling, grid_pixels, frames, corrupt);
  FROST_CHECK_LAUNCH();
}

void correct_frames(float* frames, index_t count, index_t pixels, const float* dark, const float* gain,
                    cudaStream_t stream) {
  if (!dark && !gain) return;
  correct_frames_kernel<<<blocks_for(count * pixels), kThreads, 0, stream>>>(frames, count * pixels, pixels, dark, gain);
  FROST_CHECK_LAUNCH();
}

void decode_stored_rows(const unsigned char* src, int mode, bool swap, bool mode0_unsigned, index_t row_bytes,
                        index_t nx, index_t ny, index_t row0, index_t rows, const float* dark, const float* gain,
                        float* frames, int* first_non_finite, cudaStream_t stream) {
  decode_stored_rows_kernel<<<blocks_for(rows * nx), kThreads, 0, stream>>>(src, mode, swap, mode0_unsigned, row_bytes,
                                                                            nx, ny, row0, rows, dark, gain, frames,
                                                                            first_non_finite);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::motion_kernels
