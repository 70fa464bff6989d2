#pragma once
// Complex FFTs of n = 2^a·5^b points (b <= 2) done by one thread block in shared memory, for the
// fused alignment kernels (fused_kernels.cu, tiled_shift_kernels.cu); the 2-D steps use powers of
// two, the rings' correlations n = 2^a·25 (the smallest such n >= 2S is 22 % shorter than the
// power of two). A correlation needs a forward transform, a pointwise product and an
// inverse transform, never the spectrum in natural order, so the forward transform is the
// decimation-in-frequency form (natural order in, bit-reversed order out) and the inverse the
// decimation-in-time form (bit-reversed in, natural out): no permutation pass at all. Both are
// unnormalised, as cuFFT and FFTW.
//
// Up to three radix-2 stages are done in registers per pass (8 values per thread), so a
// 128-point transform takes three passes over shared memory and a 1024-point one four; each
// radix-5 stage is one pass (5 values per thread), before the radix-2 stages in the forward
// (decimation in frequency) transform and after them in the inverse one, so that the output
// order is the digit reversal frequency_at() describes. The
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
__device__ inline float2 conj_of(float2 a) { return make_float2(a.x, -a.y); }
__device__ inline float2 cmul_conj(float2 a, float2 b) { // a · conj(b)
  return make_float2(__fmaf_rn(a.x, b.x, a.y * b.y), __fmaf_rn(a.y, b.x, -a.x * b.y));
}

/// Position of frequency k in the bit-reversed order of an n = 2^log2n transform (an involution).
__device__ inline int bit_reverse(int k, int log2n) {
  return log2n == 0 ? 0 : static_cast<int>(__brev(static_cast<unsigned>(k)) >> (32 - log2n));
}

/// The frequency k held at position p of a forward transform of n = 2^a·5^b points (b <= 2):
/// p = (d1·5 + d2)·2^a + r for b = 2 (d1, d2 the radix-5 digits, r the radix-2 bits) holds
/// k = d1 + 5·d2 + 25·brev(r); bit reversal for b = 0.
__device__ inline int frequency_at(int p, int n) {
  const int a = __ffs(n) - 1, odd = n >> a, hi = p >> a;
  const int hr = odd == 25 ? (hi % 5) * 5 + hi / 5 : hi;
  return hr + odd * bit_reverse(p & ((1 << a) - 1), a);
}
/// The position of frequency k (the inverse of frequency_at()).
__device__ inline int position_of(int k, int n) {
  const int a = __ffs(n) - 1, odd = n >> a, lo = k % odd;
  const int r = odd == 25 ? (lo % 5) * 5 + lo / 5 : lo;
  return (r << a) + bit_reverse(k / odd, a);
}
/// The position of −k for the frequency k at position p of an n = 2^log2n transform (bit-reversed
/// order), for callers that know log2n.
__device__ inline int mirror_bit_reversed(int p, int log2n) {
  const int n = 1 << log2n;
  return bit_reverse((n - bit_reverse(p, log2n)) & (n - 1), log2n);
}
/// The position of −k for the frequency k at position p.
__device__ inline int mirror_of(int p, int n) {
  const int k = frequency_at(p, n);
  return position_of(k == 0 ? 0 : n - k, n);
}

/// The sequences a pass transforms: `count` of them; log2 >= 0 when count is a power of two (the
/// work item's sequence and position then come from masks and shifts), else a float reciprocal
/// gives them (exact for w < 2^21: the error of (w + 1/2)/count stays below the margin 1/(2 count)).
struct Seqs {
  int count, log2;
  float rcp;
};
__device__ inline Seqs sequences(int count) {
  if ((count & (count - 1)) == 0) return {count, __ffs(count) - 1, 0.0f};
  return {count, -1, 1.0f / static_cast<float>(count)};
}
/// Sequence s (fastest) and position g of work item w.
__device__ inline void split_item(int w, const Seqs& q, int& s, int& g) {
  if (q.log2 >= 0) {
    s = w & (q.count - 1);
    g = w >> q.log2;
  } else {
    g = __float2int_rz((static_cast<float>(w) + 0.5f) * q.rcp);
    s = w - g * q.count;
  }
}

/// exp(−2πik/n) for k < n from the table of its first n/2 values (n even).
__device__ inline float2 twiddle_at(const float2* tw, int k, int n) {
  const int h = n >> 1;
  if (k < h) return tw[k];
  const float2 t = tw[k - h];
  return make_float2(-t.x, -t.y);
}

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

/// One pass of L radix-2 stages on the sequences q of n complex values (within
/// blocks of the power of two 2^a dividing n); element e of sequence s lives at
/// data[s·seq_stride + e·elem_stride]. Forward (DIF): spans span, span/2, ..., span/2^(L−1);
/// inverse (DIT): spans span, 2·span, ..., span·2^(L−1). `tw` holds exp(−2πik/n), k < n/2.
///
/// The elements of one work item are base + m·h (h the smallest span, base mod h = b0), so the
/// twiddle of a butterfly at stage span st is W_{2st}^(b0 + j·h) = W_{2st}^b0 · W_{2d}^j with d =
/// st / h: one table read per stage and item, the rest constants (and none at all when h = 1).
///
/// UpperZero (forward, first pass, len <= n/2): the upper half of each sequence is zero padding,
/// so the first stage's partners are 0 and it reduces to the twiddle of the lower half.
template <int L, bool Forward, bool UpperZero = false>
__device__ void fft_pass(float2* data, int n, Seqs q, int seq_stride, int elem_stride, int span,
                         const float2* tw, int len) {
  constexpr int R = 1 << L;
  const int h_min = Forward ? span >> (L - 1) : span;
  const int log2h = __ffs(h_min) - 1;
  const int items = (n >> L) * q.count;
  const int stride0 = n / (2 * span); // W_{2st}^b0 = tw[b0·n/(2st)] for the pass's first span st
  for (int w = threadIdx.x; w < items; w += blockDim.x) {
    int s, g;
    split_item(w, q, s, g);
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
      const int stride = Forward ? stride0 << l : stride0 >> l; // n/(2st), st the stage's span
      const float2 wr = h_min > 1 ? tw[b0 * stride] : make_float2(1, 0);
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

/// The 5-point DFT of v (forward: exp(−2πi·mm'/5), inverse: exp(+2πi·mm'/5)), in place.
template <bool Forward>
__device__ inline void dft5(float2* v) {
  constexpr float c1 = 0.309016994374947424f, c2 = -0.809016994374947424f; // cos 2π/5, cos 4π/5
  constexpr float s1 = 0.951056516295153572f, s2 = 0.587785252292473129f;  // sin 2π/5, sin 4π/5
  const float2 x0 = v[0];
  const float2 a1 = make_float2(v[1].x + v[4].x, v[1].y + v[4].y), b1 = make_float2(v[1].x - v[4].x, v[1].y - v[4].y);
  const float2 a2 = make_float2(v[2].x + v[3].x, v[2].y + v[3].y), b2 = make_float2(v[2].x - v[3].x, v[2].y - v[3].y);
  v[0] = make_float2(x0.x + a1.x + a2.x, x0.y + a1.y + a2.y);
  const float2 t1 = make_float2(__fmaf_rn(c2, a2.x, __fmaf_rn(c1, a1.x, x0.x)),
                                __fmaf_rn(c2, a2.y, __fmaf_rn(c1, a1.y, x0.y)));
  const float2 t2 = make_float2(__fmaf_rn(c1, a2.x, __fmaf_rn(c2, a1.x, x0.x)),
                                __fmaf_rn(c1, a2.y, __fmaf_rn(c2, a1.y, x0.y)));
  const float2 u1 = make_float2(__fmaf_rn(s2, b2.x, s1 * b1.x), __fmaf_rn(s2, b2.y, s1 * b1.y));
  const float2 u2 = make_float2(__fmaf_rn(-s1, b2.x, s2 * b1.x), __fmaf_rn(-s1, b2.y, s2 * b1.y));
  const float g = Forward ? 1.0f : -1.0f; // y1 = t1 ∓ i·u1, y4 = t1 ± i·u1, y2 = t2 ∓ i·u2, y3 = t2 ± i·u2
  v[1] = make_float2(t1.x + g * u1.y, t1.y - g * u1.x);
  v[4] = make_float2(t1.x - g * u1.y, t1.y + g * u1.x);
  v[2] = make_float2(t2.x + g * u2.y, t2.y - g * u2.x);
  v[3] = make_float2(t2.x - g * u2.y, t2.y + g * u2.x);
}

/// One radix-5 stage (one pass) on the sequences q of n values: blocks of 5·span, the
/// elements base + m·span (m < 5) of each; forward: DFT then twiddles W_{5·span}^(j·m), inverse:
/// conjugate twiddles then the inverse DFT (j the offset in the block). Elements at index >= len
/// are taken as zero without being read.
template <bool Forward>
__device__ void fft_pass5(float2* data, int n, Seqs q, int seq_stride, int elem_stride, int span,
                          const float2* tw, int len) {
  const int items = (n / 5) * q.count, block = 5 * span, tstride = n / block;
  for (int w = threadIdx.x; w < items; w += blockDim.x) {
    int s, g;
    split_item(w, q, s, g);
    // Spans are powers of two except n/5 (b = 2), where g < span is the only block.
    const int b = (span & (span - 1)) == 0 ? g >> (__ffs(span) - 1) : 0, j = g - b * span, base = b * block + j;
    float2* p = data + s * seq_stride;
    float2 v[5];
#pragma unroll
    for (int m = 0; m < 5; ++m) v[m] = base + m * span < len ? p[(base + m * span) * elem_stride] : make_float2(0, 0);
    float2 t[5]; // W_{5·span}^(j·m); exactly 1 for j = 0
#pragma unroll
    for (int m = 1; m < 5; ++m) t[m] = twiddle_at(tw, j * m * tstride, n);
    if (!Forward) {
#pragma unroll
      for (int m = 1; m < 5; ++m) v[m] = cmul_conj(v[m], t[m]);
    }
    dft5<Forward>(v);
    if (Forward) {
#pragma unroll
      for (int m = 1; m < 5; ++m) v[m] = cmul(v[m], t[m]);
    }
#pragma unroll
    for (int m = 0; m < 5; ++m) p[(base + m * span) * elem_stride] = v[m];
  }
  __syncthreads();
}

/// Forward DIF transforms of `count` sequences of n = 2^a·5^b points (natural in, the order
/// of frequency_at() out: bit-reversed for b = 0); ends synchronised. Elements at index >= len
/// are taken as zero without being read (zero-padded rings: the first pass reads only the
/// samples).
__device__ inline void forward_n(float2* data, int n, int count, int seq_stride, int elem_stride,
                                 const float2* tw, int len = 1 << 30) {
  const int a = __ffs(n) - 1;
  const Seqs q = sequences(count);
  for (int span = n / 5, odd = n >> a; odd > 1; span /= 5, odd /= 5) {
    fft_pass5<true>(data, n, q, seq_stride, elem_stride, span, tw, len);
    len = 1 << 30;
  }
  int span = (1 << a) >> 1;
  int left = a;
  while (left > 0) {
    const int l = left >= 3 ? 3 : left;
    if (l == 3 && left == a && len <= n / 2) // the first pass of a power of two: upper half zero
      fft_pass<3, true, true>(data, n, q, seq_stride, elem_stride, span, tw, len);
    else if (l == 3) fft_pass<3, true>(data, n, q, seq_stride, elem_stride, span, tw, len);
    else if (l == 2) fft_pass<2, true>(data, n, q, seq_stride, elem_stride, span, tw, len);
    else fft_pass<1, true>(data, n, q, seq_stride, elem_stride, span, tw, len);
    span >>= l;
    left -= l;
    len = 1 << 30; // later passes read what the first one wrote
  }
}

/// Inverse DIT transforms of n = 2^a·5^b points (the order of frequency_at() in, natural out,
/// exp(+2πi…)); ends synchronised.
__device__ inline void inverse_n(float2* data, int n, int count, int seq_stride, int elem_stride,
                                 const float2* tw) {
  const int a = __ffs(n) - 1;
  const Seqs q = sequences(count);
  int span = 1;
  int left = a;
  while (left > 0) {
    const int l = left >= 3 ? 3 : left;
    if (l == 3) fft_pass<3, false>(data, n, q, seq_stride, elem_stride, span, tw, 1 << 30);
    else if (l == 2) fft_pass<2, false>(data, n, q, seq_stride, elem_stride, span, tw, 1 << 30);
    else fft_pass<1, false>(data, n, q, seq_stride, elem_stride, span, tw, 1 << 30);
    span <<= l;
    left -= l;
  }
  for (span = 1 << a; span < n; span *= 5) fft_pass5<false>(data, n, q, seq_stride, elem_stride, span, tw, 1 << 30);
}

/// forward_n() and inverse_n() of n = 2^log2n points (bit-reversed order).
__device__ inline void forward(float2* data, int log2n, int log2count, int seq_stride, int elem_stride,
                               const float2* tw, int len = 1 << 30) {
  forward_n(data, 1 << log2n, 1 << log2count, seq_stride, elem_stride, tw, len);
}
__device__ inline void inverse(float2* data, int log2n, int log2count, int seq_stride, int elem_stride,
                               const float2* tw) {
  inverse_n(data, 1 << log2n, 1 << log2count, seq_stride, elem_stride, tw);
}

} // namespace frost::cuda::block_fft
