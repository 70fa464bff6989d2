#pragma once
/// @file patch_stack.hpp
/// @brief The image stack of one local-alignment patch
/// (docs/movie_align.md#patch-stacks-and-the-rounding-correction): for every frame t, the sum over
/// a sliding window of frames, each read at the integer offset round(d_f) of its global
/// displacement, and the rounding correction that this integer read requires.
#include <vector>

#include "frost/core/image.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// Frames [first, last] (inclusive) summed into the patch image of one frame.
struct FrameWindow {
  int first = 0, last = 0;
  int size() const { return last - first + 1; }
};

/// @brief W(t) = [max(0, t - floor((a-1)/2)), min(N-1, t + floor(a/2))] for a = `average` >= 1
/// (a = 3: frames t-1, t, t+1). frost::Error(Usage) for a < 1.
FrameWindow patch_window(int t, int frames, int average);

/// @brief How each frame is read into the patches: the global displacement d_f = -s_f split into
/// an integer offset and a rounding residual, and the window means of the residuals.
struct PatchOffsets {
  std::vector<int> x, y;                 ///< round(d_f) per frame [processing px]
  std::vector<Vec2> residual;            ///< rho_f = d_f - round(d_f), in (-0.5, 0.5]
  std::vector<Vec2> window_mean_residual;///< rho-bar_t: mean of rho_f over W(t)
  int average = 3;                       ///< a
};

/// @brief Offsets for global shifts to apply `shifts` (one per frame, processing px) and window
/// size `average`. Rounding is half away from zero (std::round), the same on every platform.
PatchOffsets patch_offsets(const std::vector<Vec2>& shifts, int average);

/// @brief Fills `stack` (P x P x 1 x N, P = stack.shape.x = stack.shape.y) with the patch images
/// of the patch whose top-left pixel is (x0, y0): item t = sum over f in W(t) of
/// frame_f(x0 + u + offset_x[f], y0 + v + offset_y[f]). Reads beyond the frame edge (only possible
/// when the patch grid had to shrink its border) take the nearest edge pixel.
/// frost::Error(Runtime) when the shapes disagree with the frames or offsets.
void fill_patch_stack(const std::vector<View<const float>>& frames, const PatchOffsets& offsets, int x0, int y0,
                      View<float> stack);

/// @brief The share of frame `f` in fill_patch_stack: adds it to every item t whose window W(t)
/// holds f. Calling it for f = 0, 1, ..., N-1 on a zeroed stack gives fill_patch_stack's result
/// bit for bit (each item receives its frames in the same order), so a program can stream frames.
void add_frame_to_patch_stack(View<const float> frame, int f, const PatchOffsets& offsets, int x0, int y0,
                              View<float> stack);

} // namespace frost::motion
