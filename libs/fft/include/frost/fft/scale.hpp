#pragma once
/// @file scale.hpp
/// @brief Explicit normalisation: frost's transforms never scale implicitly (FFTW convention).
#include <cstddef>

#include "frost/fft/spec.hpp"

namespace frost::fft {

/// 1 / (x*y*z): the factor that makes an inverse transform undo a forward one.
double inverse_scale(const FftSpec& spec);

/// Multiplies `count` host floats by `factor` (OpenMP-parallel for large arrays).
void scale(float* data, std::size_t count, float factor);
/// Multiplies `count` host complex values by `factor`.
void scale(Complex* data, std::size_t count, float factor);

} // namespace frost::fft
