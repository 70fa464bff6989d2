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

/// v · W_{2d}^j (forward, W_m = exp(−2πi/m)) or v · conj(W_{2d}^j) (inverse) for d in {1, 2, 4},
/// j < d; d and j are compile-time constants after unrolling, so only the multiplications by
/// exp(∓iπ/4) remain.
template <bool Forward>
__device__ inline float2 twiddle_const(float2 v, int d, int j) {
  constexpr float r = 0.70710678118654752f;
  if (d == 1 || j == 0) return v;
  if (d == 2 || j == 2) return Forward ? make_float2(v.y, -v.x) : make_float2(-v.y, v.x); // ∓i
  if (j == 1) return Forward ? make_float2((v.x + v.y) * r, (v.y - v.x) * r) : make_float2((v.x - v.y) * r, (v.x + v.y) * r);
  return Forward ? make_float2((v.y - v.x) * r, -(v.x + v.y) * r) : make_float2(-(v.x + v.y) * r, (v.x - v.y) * r);
}

/// One pass of L radix-2 stages on count = 2^log2count sequences of n = 2^log2n complex values;
/// element e of sequence s lives at data[s·seq_stride + e·elem_stride]. Forward (DIF): spans
/// span, span/2, ..., span/2^(L−1); inverse (DIT): spans span, 2·span, ..., span·2^(L−1). `tw`
/// holds exp(−2πik/n), k < n/2.
///
/// The elements of one work item are base + m·h (h the smallest span, base mod h = b0), so the
/// twiddle of a butterfly at stage span st is W_{2st}^(b0 + j·h) = W_{2st}^b0 · W_{2d}^j with d =
/// st / h: one table read per stage and item, the rest constants (and none at all when h = 1).
///
/// UpperZero (forward, first pass, len <= n/2): the upper half of each sequence is zero padding,
/// so the first stage's partners are 0 and it reduces to the twiddle of the lower half.
template <int L, bool Forward, bool UpperZero = false>
__device__ void fft_pass(float2* data, int log2n, int log2count, int seq_stride, int elem_stride, int span,
                         const float2* tw, int len) {
  constexpr int R = 1 << L;
  const int h_min = Forward ? span >> (L - 1) : span;
  const int log2h = __ffs(h_min) - 1;
  const int items = 1 << (log2n - L + log2count);
  for (int w = threadIdx.x; w < items; w += blockDim.x) {
    const int s = w & ((1 << log2count) - 1), g = w >> log2count;
    const int b0 = g & (h_min - 1);
    const int base = ((g >> log2h) << (log2h + L)) + b0;
    float2* p = data + s * seq_stride;
    float2 v[R];
#pragma unroll
    for (int m = 0; m < R; ++m)
      v[m] = (!UpperZero || m < R / 2) && base + m * h_min < len ? p[(base + m * h_min) * elem_stride]
                                                                  : make_float2(0, 0);
#pragma unroll
    for (int l = 0; l < L; ++l) {
      const int dist = Forward ? R >> (l + 1) : 1 << l; // partner distance in v, and d above
      const int st = Forward ? span >> l : span << l;   // the stage's span in elements
      const float2 wr = h_min > 1 ? tw[b0 << (log2n - __ffs(st))] : make_float2(1, 0);
      if (UpperZero && l == 0) { // a + 0 = a, (a − 0)·w
#pragma unroll
        for (int m = 0; m < R / 2; ++m) {
          float2 d = v[m];
          if (h_min > 1) d = cmul(d, wr);
          v[m + R / 2] = twiddle_const<true>(d, R / 2, m);
        }
        continue;
      }
#pragma unroll
      for (int m = 0; m < R; ++m) {
        if (m & dist) continue;
        const int j = m & (dist - 1);
        const float2 a = v[m], b = v[m + dist];
        if (Forward) {
          v[m] = make_float2(a.x + b.x, a.y + b.y);
          float2 d = make_float2(a.x - b.x, a.y - b.y);
          if (h_min > 1) d = cmul(d, wr);
          v[m + dist] = twiddle_const<true>(d, dist, j);
        } else {
          float2 t = twiddle_const<false>(b, dist, j);
          if (h_min > 1) t = cmul_conj(t, wr);
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

/// Forward DIF transforms (natural in, bit-reversed out) of 2^log2count sequences; ends
/// synchronised. Elements at index >= len are taken as zero without being read (zero-padded
/// rings: the first pass reads only the samples).
__device__ inline void forward(float2* data, int log2n, int log2count, int seq_stride, int elem_stride,
                               const float2* tw, int len = 1 << 30) {
  int span = (1 << log2n) >> 1;
  int left = log2n;
  while (left > 0) {
    const int l = left >= 3 ? 3 : left;
    if (l == 3 && left == log2n && len <= (1 << log2n) / 2)
      fft_pass<3, true, true>(data, log2n, log2count, seq_stride, elem_stride, span, tw, len);
    else if (l == 3) fft_pass<3, true>(data, log2n, log2count, seq_stride, elem_stride, span, tw, len);
    else if (l == 2) fft_pass<2, true>(data, log2n, log2count, seq_stride, elem_stride, span, tw, len);
    else fft_pass<1, true>(data, log2n, log2count, seq_stride, elem_stride, span, tw, len);
    span >>= l;
    left -= l;
    len = 1 << 30; // later passes read what the first one wrote
  }
}

/// Inverse DIT transforms (bit-reversed in, natural out, exp(+2πi…)); ends synchronised.
__device__ inline void inverse(float2* data, int log2n, int log2count, int seq_stride, int elem_stride,
                               const float2* tw) {
  int span = 1;
  int left = log2n;
  while (left > 0) {
    const int l = left >= 3 ? 3 : left;
    if (l == 3) fft_pass<3, false>(data, log2n, log2count, seq_stride, elem_stride, span, tw, 1 << 30);
    else if (l == 2) fft_pass<2, false>(data, log2n, log2count, seq_stride, elem_stride, span, tw, 1 << 30);
    else fft_pass<1, false>(data, log2n, log2count, seq_stride, elem_stride, span, tw, 1 << 30);
    span <<= l;
    left -= l;
  }
}

} // namespace frost::cuda::block_fft
