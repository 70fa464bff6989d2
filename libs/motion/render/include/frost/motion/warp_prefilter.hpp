#pragma once
/// @file warp_prefilter.hpp
/// @brief The CPU render's cubic B-spline prefilter (docs/movie_align.md#the-cpu-render): the
/// coefficients of geom::bspline_coefficients_2d (same pole, gain, mirrored causal start over 30
/// terms and anti-causal start), computed in float on many lines at once: columns side by side in
/// strips, rows in blocks of 8 transposed into a line buffer, so that the recursions run over
/// contiguous lanes the compiler vectorises. Differs from the double filter by float rounding
/// (about 1e-7 of the coefficients' scale).
#include "frost/core/image.hpp"

namespace frost::motion {

/// Coefficients of the interpolating cubic B-spline of one 2-D frame (mirror boundaries). Frames
/// with a side below 16 go through geom::bspline_coefficients_2d.
Image<float> bspline_coefficients_float(View<const float> frame);

namespace detail {
/// The in-place prefilter of `lanes` lines of n >= 16 samples, sample k of line l at
/// data[k * stride + l].
void prefilter_lanes(float* data, index_t n, index_t stride, index_t lanes);
} // namespace detail

} // namespace frost::motion
