#pragma once
// The AVX2 form of warp_row (docs/movie_align.md#the-cpu-render), for x86-64 processors with AVX2
// and FMA; elsewhere warp_row_avx2_available() is false.
#include "frost/core/shape.hpp"

namespace frost::motion::detail {

/// Also false when FROST_CPU_WARP=scalar.
bool warp_row_avx2_available();
/// The whole row y, eight pixels at a time where their taps are regular (see the source).
void warp_row_avx2(const float* c, index_t nx, index_t ny, index_t y, const double* sx, const double* sy, float* dst);

} // namespace frost::motion::detail
