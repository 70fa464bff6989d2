#pragma once
/// @file interpolation_method.hpp
/// @brief How a frame is resampled at the shifted positions (`--interp`,
/// docs/movie_align.md#warping-a-frame).
#include <string>

namespace frost::motion {

enum class InterpolationMethod {
  BSpline3, ///< cubic B-spline of the prefiltered frame, mirror outside (default, Xmipp GPU)
  Bilinear, ///< RELION-compatible bilinear, edge pixel outside
  Fourier   ///< exact phase ramp; one shift per frame (global-only models)
};

/// @brief "bspline3", "bilinear" or "fourier". @throw frost::Error(Usage) for anything else.
InterpolationMethod parse_interpolation_method(const std::string& text);
std::string to_string(InterpolationMethod method);

} // namespace frost::motion
