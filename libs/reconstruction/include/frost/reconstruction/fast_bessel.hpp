#pragma once
/// @file fast_bessel.hpp
/// @brief Single-precision modified Bessel functions for computing blob weights on the fly
/// (docs/reconstruct_fourier.md#the-blob-kernel, `--interp dynamic`): the classic polynomial
/// approximations of I0 and I1 (Abramowitz & Stegun 9.8.1-9.8.4, relative error < 2e-7) and the upward
/// recurrence for orders 2-4. FROST_HD: the same code runs in the CPU loops and the CUDA kernels.
#include <math.h>

#include "frost/reconstruction/precision.hpp"
#include "frost/core/hd.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

FROST_HD inline float bessel_i0_fast(float x) {
  const float ax = x < 0 ? -x : x;
  if (ax < 3.75f) {
    const float y = (x / 3.75f) * (x / 3.75f);
    return 1.0f + y * (3.5156229f + y * (3.0899424f + y * (1.2067492f + y * (0.2659732f +
           y * (0.0360768f + y * 0.0045813f)))));
  }
  const float y = 3.75f / ax;
  return (expf(ax) / sqrtf(ax)) *
         (0.39894228f + y * (0.01328592f + y * (0.00225319f + y * (-0.00157565f + y * (0.00916281f +
          y * (-0.02057706f + y * (0.02635537f + y * (-0.01647633f + y * 0.00392377f))))))));
}

FROST_HD inline float bessel_i1_fast(float x) {
  const float ax = x < 0 ? -x : x;
  float r;
  if (ax < 3.75f) {
    const float y = (x / 3.75f) * (x / 3.75f);
    r = ax * (0.5f + y * (0.87890594f + y * (0.51498869f + y * (0.15084934f + y * (0.02658733f +
        y * (0.00301532f + y * 0.00032411f))))));
  } else {
    const float y = 3.75f / ax;
    r = (expf(ax) / sqrtf(ax)) *
        (0.39894228f + y * (-0.03988024f + y * (-0.00362018f + y * (0.00163801f + y * (-0.01031555f +
         y * (0.02282967f + y * (-0.02895312f + y * (0.01787654f - y * 0.00420059f))))))));
  }
  return x < 0 ? -r : r;
}

/// I_m(x) for m = 0..4, x >= 0: I0, I1, then I_{n+1} = I_{n-1} - (2n/x) I_n.
FROST_HD inline float bessel_im_fast(int m, float x) {
  float i0 = bessel_i0_fast(x);
  if (m == 0) return i0;
  float i1 = bessel_i1_fast(x);
  if (m == 1) return i1;
  if (x == 0.0f) return 0.0f;
  for (int n = 1; n < m; ++n) {
    const float i2 = i0 - (2.0f * n / x) * i1;
    i0 = i1;
    i1 = i2;
  }
  return i1;
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
