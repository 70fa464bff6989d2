// Patch image stacks on the device (docs/movie_align.md#patch-stacks-and-the-rounding-correction):
// the host's fill_patch_stack for a batch of patches, with the window and clamping rules of
// patch_stack_math.hpp. Each output pixel sums its frames in window order starting from 0, as the
// host does, so the stacks are identical.
#include "frost/cuda/check.hpp"
#include "frost/motion/patch_stack_math.hpp"
#include "launch.cuh"
#include "motion_kernels.hpp"

namespace frost::cuda::motion_kernels {

namespace {

__global__ void fill_patch_stacks_kernel(const float* frames, index_t nx, index_t ny, int n, const int2* offsets,
                                         int average, const int2* corners, int patches, index_t p, float* stacks) {
  const index_t per = p * p;
  const index_t total = per * n * patches;
  for (index_t i = global_thread(); i < total; i += grid_stride()) {
    const index_t u = i % p, v = (i / p) % p;
    const index_t item = i / per;
    const int t = static_cast<int>(item % n), k = static_cast<int>(item / n);
    const int2 c = corners[k];
    const int first = motion::patch_window_first(t, average), last = motion::patch_window_last(t, n, average);
    float sum = 0.0f;
    for (int f = first; f <= last; ++f) {
      const int2 o = offsets[f];
      const index_t x = motion::clamp_to_frame(c.x + u + o.x, nx);
      const index_t y = motion::clamp_to_frame(c.y + v + o.y, ny);
      sum += frames[static_cast<index_t>(f) * nx * ny + y * nx + x];
    }
    stacks[i] = sum;
  }
}

} // namespace

void fill_patch_stacks(const float* frames, index_t nx, index_t ny, int frames_count, const int2* offsets,
                       int average, const int2* corners, int patches, index_t p, float* stacks, cudaStream_t stream) {
  fill_patch_stacks_kernel<<<blocks_for(p * p * frames_count * patches), kThreads, 0, stream>>>(
      frames, nx, ny, frames_count, offsets, average, corners, patches, p, stacks);
  FROST_CHECK_LAUNCH();
}

} // namespace frost::cuda::motion_kernels
