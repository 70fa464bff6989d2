#pragma once
/// @file patch_stack_math.hpp
/// @brief Per-pixel rules of the patch image stacks
/// (docs/movie_align.md#patch-stacks-and-the-rounding-correction), shared by fill_patch_stack() and
/// the CUDA patch kernel (cuda/motion).
#include "frost/core/hd.hpp"
#include "frost/core/shape.hpp"

namespace frost::motion {

/// First frame of the sliding window W(t) of `average` >= 1 frames: max(0, t - floor((a-1)/2)).
FROST_HD inline int patch_window_first(int t, int average) {
  const int f = t - (average - 1) / 2;
  return f > 0 ? f : 0;
}
/// Last frame of W(t): min(N - 1, t + floor(a/2)).
FROST_HD inline int patch_window_last(int t, int frames, int average) {
  const int l = t + average / 2;
  return l < frames - 1 ? l : frames - 1;
}

/// A read position clamped to [0, n - 1]: patches whose shifted window leaves the frame (only
/// when the patch grid had to shrink its border) read the nearest edge pixel.
FROST_HD inline index_t clamp_to_frame(index_t i, index_t n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

} // namespace frost::motion
