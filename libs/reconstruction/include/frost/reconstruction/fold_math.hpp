#pragma once
/// @file fold_math.hpp
/// @brief The per-voxel arithmetic of the fast-mode blob convolution (docs/reconstruct_fourier.md#fast-mode)
/// and of the Friedel fold (docs/reconstruct_fourier.md#finalisation, step 2), written once as FROST_HD
/// templates: the host convolve_with_blob / fold_into (grid.cpp) and the CUDA finish kernel
/// (cuda/reconstruction) call them, so both backends compute every folded voxel with the same operations in
/// the same order. `Load` reads voxel (x, y, z) of a full cube: load(x, y, z, re, im, w).
#include "frost/reconstruction/precision.hpp"
#include "frost/core/hd.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// One tap of the fast-mode blob convolution: offset (dx, dy, dz) with |d| <= a and weight
/// table.nearest(|d|^2). blob_convolution_taps() (grid.hpp) lists them, dz outermost, dx innermost.
struct BlobTap {
  int dx = 0, dy = 0, dz = 0;
  Real w = 0;
};

/// @brief Blob-convolved value of voxel (x, y, z) of a cube of side `side`: the sum over the taps,
/// in their order, of w * value of the voxel at the tap's offset (offsets outside the cube are
/// skipped). Complex and weight sums in Real, as std::complex<Real> g += w * G does.
template <class Load>
FROST_HD inline void convolve_voxel(const BlobTap* taps, int count, int x, int y, int z, int side, const Load& load,
                                    Real& re, Real& im, Real& w) {
  Real gr = 0, gi = 0, gw = 0;
  for (int k = 0; k < count; ++k) {
    const BlobTap t = taps[k];
    const int sx = x + t.dx, sy = y + t.dy, sz = z + t.dz;
    if (sx < 0 || sy < 0 || sz < 0 || sx >= side || sy >= side || sz >= side) continue;
    Real vr, vi, vw;
    load(sx, sy, sz, vr, vi, vw);
    gr += t.w * vr;
    gi += t.w * vi;
    gw += t.w * vw;
  }
  re = gr;
  im = gi;
  w = gw;
}

/// @brief Friedel fold of one output voxel (step 2 of docs/reconstruct_fourier.md#finalisation) of
/// a cube with M + 1 voxels per side: output (xo, y, z), xo = kx in 0..M/2, takes the cube's voxel
/// (xo + M/2, y, z) plus, for xo > 0, the conjugate of its mirror (M - x, M - y, M - z) (which has
/// kx < 0). Loads Real voxels; sums in `Sum` (double on the host, float on the GPU).
template <class Sum, class Load>
FROST_HD inline void fold_voxel(int xo, int y, int z, int M, const Load& load, Sum& re, Sum& im, Sum& w) {
  const int x = xo + M / 2;
  Real gr, gi, gw;
  load(x, y, z, gr, gi, gw);
  re = gr;
  im = gi;
  w = gw;
  if (xo > 0) {
    Real mr, mi, mw;
    load(M - x, M - y, M - z, mr, mi, mw);
    re += mr;
    im -= mi;
    w += mw;
  }
}

/// @brief Step 3 of docs/reconstruct_fourier.md#finalisation for one pair of the kx = 0 plane:
/// voxel a and its mirror b (-ky, -kz) both take the average of G[a] and conj(G[b]) (b its
/// conjugate) and of the weights; a == b (the centre) becomes real. `data` interleaves (re, im).
/// The host symmetrise_kx0_plane and the CUDA finish run it.
template <class T>
FROST_HD inline void average_kx0_pair(T* data, T* weight, long long a, long long b) {
  const T re = T(0.5) * (data[2 * a] + data[2 * b]);
  const T im = T(0.5) * (data[2 * a + 1] - data[2 * b + 1]);
  const T w = T(0.5) * (weight[a] + weight[b]);
  data[2 * a] = re;
  data[2 * a + 1] = im;
  data[2 * b] = re;
  data[2 * b + 1] = -im;
  weight[a] = w;
  weight[b] = w;
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
