#pragma once
/// @file control_points.hpp
/// @brief How many B-spline control points the local model gets
/// (docs/movie_align.md#fitting-the-coefficients, `--controlPoints LX LY LT` or `auto`).
namespace frost::motion {

/// Control points per axis, each counting the two extra end points (>= 3).
struct ControlPoints {
  int x = 6, y = 6, t = 5; ///< Xmipp's command-line default `6 6 5`
};

/// @brief The `auto` rule Scipion applies when it drives FlexAlign (`_setControlPoints`): one
/// spatial interval per ~1000 Å, one temporal interval per 7 frames:
/// L_x = max(3, floor(width·pixel_size/1000) + 2), L_y likewise, L_t = max(3, ceil(frames/7) + 2).
/// `width`/`height` in pixels of size `pixel_size` Å (raw size with Ts, or binned size with Ts·b:
/// the product is the same). Falcon 4096² at 1 Å/px, 40 frames -> 6x6x8.
/// frost::Error(Usage) for non-positive arguments.
ControlPoints auto_control_points(double width, double height, double pixel_size, int frames);

} // namespace frost::motion
