#pragma once
/// @file hd_math.hpp
/// @brief float/double overloads of the C math functions, usable on host and device.
///
/// std::sin and friends are not callable from CUDA device code, and the C names differ per
/// type (sinf/sin). These thin overloads let the FROST_HD templates in this library be written
/// once for float and double.
#include <math.h>

#include "frost/core/hd.hpp"

namespace frost::geom::hdm {

constexpr double kPi = 3.14159265358979323846;

FROST_HD inline float sin_(float x) { return sinf(x); }
FROST_HD inline double sin_(double x) { return sin(x); }
FROST_HD inline float cos_(float x) { return cosf(x); }
FROST_HD inline double cos_(double x) { return cos(x); }
FROST_HD inline float floor_(float x) { return floorf(x); }
FROST_HD inline double floor_(double x) { return floor(x); }
FROST_HD inline float sqrt_(float x) { return sqrtf(x); }
FROST_HD inline double sqrt_(double x) { return sqrt(x); }
FROST_HD inline float atan2_(float y, float x) { return atan2f(y, x); }
FROST_HD inline double atan2_(double y, double x) { return atan2(y, x); }
FROST_HD inline float abs_(float x) { return fabsf(x); }
FROST_HD inline double abs_(double x) { return fabs(x); }
FROST_HD inline float log_(float x) { return logf(x); }
FROST_HD inline double log_(double x) { return log(x); }

template <class T>
FROST_HD inline T deg2rad(T deg) {
  return deg * static_cast<T>(kPi / 180.0);
}
template <class T>
FROST_HD inline T rad2deg(T rad) {
  return rad * static_cast<T>(180.0 / kPi);
}

} // namespace frost::geom::hdm
