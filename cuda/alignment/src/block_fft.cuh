#pragma once
// Power-of-two complex FFTs done by one thread block in shared memory, for the fused alignment
// kernels (fused_kernels.cu). A correlation needs a forward transform, a pointwise product and an
// inverse transform, never the spectrum in natural order, so the forward transform is the
// decimation-in-frequency form (natural order in, bit-reversed order out) and the inverse the
// decimation-in-time form (bit-reversed in, natural out): no permutation pass at all. Both are
// unnormalised, as cuFFT and FFTW.
//
// Up to three radix-2 stages are done in registers per pass (8 values per thread), so a
// 128-point transform takes three passes over shared memory and a 1024-point one four. The
// work items of a pass are ordered with the sequence index fastest: with columns (elements a row
// apart) or rows padded to an odd stride of complex values, the threads of a warp then touch
// distinct banks.
#include <cuda_runtime.h>

namespace frost::cuda::block_fft {

// Explicit fused multiply-adds: the library is compiled with --fmad=false (for the per-element
// math shared with the CPU), which the FFT's rounding does not need.
__device__ inline float2 cmul(float2 a, float2 b) {
  return make_float2(__fmaf_rn(a.x, b.x, -a.y * b.y), __fmaf_rn(a.x, b.y, a.y * b.x));
}
__device__ inline float2 cmul_conj(float2 a, float2 b) { // a · conj(b)
  return make_float2(__fmaf_rn(a.x, b.x, a.y * b.y), __fmaf_rn(a.y, b.x, -a.x * b.y));
}

/// Position of frequency k in the bit-reversed order of an n = 2^log2n transform (an involution).
__device__ inline int bit_reverse(int k, int log2n) { return static_cast<int>(__brev(static_cast<unsigned>(k)) >> (32 - log2n)); }

/// One pass of L radix-2 stages on count = 2^log2count sequences of n = 2^log2n complex values;
/// element e of sequence s lives at data[s·seq_stride + e·elem_stride]. Forward (DIF): spans span, span/2,
/// ..., span/2^(L−1); inverse (DIT): spans span, 2·span, ..., span·2^(L−1). `tw` holds
/// exp(−2πik/n), k < n/2.
template <int L, bool Forward>
__device__ void fft_pass(float2* data, int log2n, int log2count, int seq_stride, int elem_stride, int span,
                         const float2* tw) {
  constexpr int R = 1 << L;
  const int h_min = Forward ? span >> (L - 1) : span;
  const int log2h = __ffs(h_min) - 1;
  const int items = 1 << (log2n - L + log2count);
  for (int w = threadIdx.x; w < items; w += blockDim.x) {
    const int s = w & ((1 << log2count) - 1), g = w >> log2count;
    const int base = ((g >> log2h) << (log2h + L)) + (g & (h_min - 1));
    float2* p = data + s * seq_stride;
    float2 v[R];
#pragma unroll
    for (int m = 0; m < R; ++m) v[m] = p[(base + m * h_min) * elem_stride];
#pragma unroll
    for (int l = 0; l < L; ++l) {
      const int dist = Forward ? R >> (l + 1) : 1 << l; // partner distance in v
      const int st = Forward ? span >> l : span << l;   // the stage's span in elements
      const int tw_shift = log2n - __ffs(st); // W_{2st}^pos = tw[pos · n / (2 st)]
#pragma unroll
      for (int m = 0; m < R; ++m) {
        if (m & dist) continue;
        const int e = base + m * h_min;
        const float2 w2 = tw[(e & (st - 1)) << tw_shift];
        const float2 a = v[m], b = v[m + dist];
        if (Forward) {
          v[m] = make_float2(a.x + b.x, a.y + b.y);
          v[m + dist] = cmul(make_float2(a.x - b.x, a.y - b.y), w2);
        } else {
          const float2 t = cmul_conj(b, w2);
          v[m] = make_float2(a.x + t.x, a.y + t.y);
          v[m + dist] = make_float2(a.x - t.x, a.y - t.y);
        }
      }
    }
#pragma unroll
    for (int m = 0; m < R; ++m) p[(base + m * h_min) * elem_stride] = v[m];
  }
  __syncthreads();
}

/// Forward DIF transforms (natural in, bit-reversed out) of 2^log2count sequences; ends synchronised.
__device__ inline void forward(float2* data, int log2n, int log2count, int seq_stride, int elem_stride,
                               const float2* tw) {
  int span = (1 << log2n) >> 1;
  int left = log2n;
  while (left > 0) {
    const int l = left >= 3 ? 3 : left;
    if (l == 3) fft_pass<3, true>(data, log2n, log2count, seq_stride, elem_stride, span, tw);
    else if (l == 2) fft_pass<2, true>(data, log2n, log2count, seq_stride, elem_stride, span, tw);
    else fft_pass<1, true>(data, log2n, log2count, seq_stride, elem_stride, span, tw);
    span >>= l;
    left -= l;
  }
}

/// Inverse DIT transforms (bit-reversed in, natural out, exp(+2πi…)); ends synchronised.
__device__ inline void inverse(float2* data, int log2n, int log2count, int seq_stride, int elem_stride,
                               const float2* tw) {
  int span = 1;
  int left = log2n;
  while (left > 0) {
    const int l = left >= 3 ? 3 : left;
    if (l == 3) fft_pass<3, false>(data, log2n, log2count, seq_stride, elem_stride, span, tw);
    else if (l == 2) fft_pass<2, false>(data, log2n, log2count, seq_stride, elem_stride, span, tw);
    else fft_pass<1, false>(data, log2n, log2count, seq_stride, elem_stride, span, tw);
    span <<= l;
    left -= l;
  }
}

} // namespace frost::cuda::block_fft
