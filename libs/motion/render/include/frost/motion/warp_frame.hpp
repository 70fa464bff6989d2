#pragma once
/// @file warp_frame.hpp
/// @brief Aligning one frame: A(x) = F(x − s(x)) (docs/movie_align.md#warping-a-frame).
///
/// Methods:
/// - BSpline3: the frame is prefiltered into cubic B-spline coefficients (frost::geom, mirror
///   boundary) and the spline is evaluated at x − s(x); positions outside the frame are
///   reflected back (whole-sample mirror about the first and last pixel centres).
/// - Bilinear: RELION's rule: bilinear inside; where the 2x2 footprint leaves the frame, the
///   pixel at the clamped floor position is taken as it is.
/// - Fourier: r2c, phase ramp for the constant shift, c2r; periodic boundary. Needs a constant
///   shift (global-only model).
/// A constant shift of exactly zero copies the frame. Rows are processed in parallel (OpenMP);
/// each output pixel is computed alone, so the result does not depend on the thread count.
#include "frost/core/image.hpp"
#include "frost/motion/frame_shift.hpp"
#include "frost/motion/interpolation_method.hpp"

namespace frost::motion {

/// @brief Writes the aligned frame into `out` (same 2-D shape as `frame`, distinct memory).
/// @throw frost::Error(Usage) for Fourier with a non-constant shift; frost::Error(Runtime) for
/// mismatched or non-2-D shapes.
void warp_frame(View<const float> frame, const FrameShift& shift, InterpolationMethod method, View<float> out);

/// The same, returning a new image.
Image<float> warp_frame(View<const float> frame, const FrameShift& shift, InterpolationMethod method);

} // namespace frost::motion
