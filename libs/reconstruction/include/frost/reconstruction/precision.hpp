#pragma once
/// @file precision.hpp
/// @brief The real type of the CPU reconstruction path (docs/reconstruct_fourier.md#at-a-glance,
/// Precision): float, or double in the test-only build frost_reconstruction_f64 (FROST_RECON_DOUBLE=1)
/// that test T15 (docs/reconstruct_fourier.md#reconstruction-tests) compares with. Every declaration of
/// the library lives in an inline namespace named after the precision (f32 / f64) so that both builds
/// link into one test binary. The CUDA backend includes the headers without the macro: it is float only.
#include <math.h>

#include <complex>

#include "frost/core/hd.hpp"

#ifndef FROST_RECON_DOUBLE
#define FROST_RECON_DOUBLE 0
#endif

#if FROST_RECON_DOUBLE
#define FROST_RECON_PRECISION f64
#else
#define FROST_RECON_PRECISION f32
#endif

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

#if FROST_RECON_DOUBLE
using Real = double;
#else
using Real = float;
#endif
using RealComplex = std::complex<Real>;

// floor and ceil of a Real. The float overloads call floorf and ceilf, the calls the
// float code made before Real existed, so the float build (and the GPU) computes the same bits.
FROST_HD inline float real_floor(float x) { return floorf(x); }
FROST_HD inline double real_floor(double x) { return floor(x); }
FROST_HD inline float real_ceil(float x) { return ceilf(x); }
FROST_HD inline double real_ceil(double x) { return ceil(x); }

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
