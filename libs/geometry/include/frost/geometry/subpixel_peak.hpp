#pragma once
/// @file subpixel_peak.hpp
/// @brief Sub-pixel refinement of a correlation maximum from its neighbours (`--subpixel` of
/// frost_movie_align and frost_align_significant; docs/movie_align.md#peak-search-and-sub-pixel-refinement,
/// docs/align_significant.md#shift-step), written once for float and double, host and device.
#include <string>

#include "frost/core/hd.hpp"
#include "frost/geometry/hd_math.hpp"

namespace frost::geom {

/// How a correlation peak is refined.
enum class SubpixelMethod {
  None,      ///< integer position (Xmipp's 2-D aligner)
  Parabolic, ///< separable three-point parabola (RELION)
  Gauss3,    ///< separable three-point Gaussian fit, parabolic where a value is <= 0
  Centroid3  ///< 3x3 centroid with values divided by the peak (Xmipp `refineLocation`)
};

/// "none" / "parabolic" / "gauss3" / "centroid3".
std::string to_string(SubpixelMethod method);
/// The to_string() names, in any letter case. @throw frost::Error(Usage) naming `--subpixel`.
SubpixelMethod parse_subpixel(const std::string& text);

/// Vertex offset of the parabola through (−1, vm), (0, v0), (+1, vp): δ = (vm − vp) / (2(vm −
/// 2v0 + vp)), used only when the denominator is negative (a maximum), clamped to [−0.5, 0.5].
template <class T>
FROST_HD inline T parabolic_offset(T vm, T v0, T vp) {
  const T den = vm - T(2) * v0 + vp;
  if (!(den < T(0))) return T(0); // flat or not a maximum
  T d = (vm - vp) / (T(2) * den);
  if (d > T(0.5)) d = T(0.5);
  if (d < T(-0.5)) d = T(-0.5);
  return d;
}

/// Offset of the Gaussian through the three points: the parabola of their logarithms, clamped to
/// [−0.5, 0.5]; parabolic_offset when a value is <= 0 or the logarithms are not a maximum.
template <class T>
FROST_HD inline T gauss3_offset(T vm, T v0, T vp) {
  if (!(vm > T(0) && v0 > T(0) && vp > T(0))) return parabolic_offset(vm, v0, vp);
  const T lm = hdm::log_(vm), l0 = hdm::log_(v0), lp = hdm::log_(vp);
  const T den = lm - T(2) * l0 + lp;
  if (!(den < T(0))) return parabolic_offset(vm, v0, vp);
  T d = (lm - lp) / (T(2) * den);
  if (d > T(0.5)) d = T(0.5);
  if (d < T(-0.5)) d = T(-0.5);
  return d;
}

/// Offset of the maximum v0 of three samples at −1, 0, +1 (a 1-D peak, e.g. over angles).
/// Centroid3: the centroid of the three samples weighted by value / v0; 0 unless v0 and the
/// weight sum are positive.
template <class T>
FROST_HD inline T refine_peak_1d(T vm, T v0, T vp, SubpixelMethod method) {
  if (method == SubpixelMethod::Parabolic) return parabolic_offset(vm, v0, vp);
  if (method == SubpixelMethod::Gauss3) return gauss3_offset(vm, v0, vp);
  if (method == SubpixelMethod::Centroid3 && v0 > T(0)) {
    const T w = (vm + v0 + vp) / v0;
    if (w > T(0)) return (vp - vm) / v0 / w;
  }
  return T(0);
}

/// Sub-pixel offset (ox, oy) of a 2-D peak of value `peak`; at(a, b) is the value at offset
/// (a, b) from the peak (a, b in {−1, 0, 1}), as T. Gauss3 fits both axes only when the peak and
/// its four axis neighbours are all positive, else both axes are parabolic. Centroid3 weights the
/// 3x3 values by value / peak; (0, 0) unless the peak and the weight sum are positive.
template <class T, class At>
FROST_HD inline void refine_peak_2d(const At& at, T peak, SubpixelMethod method, T& ox, T& oy) {
  ox = T(0);
  oy = T(0);
  if (method == SubpixelMethod::Parabolic) {
    ox = parabolic_offset(at(-1, 0), peak, at(1, 0));
    oy = parabolic_offset(at(0, -1), peak, at(0, 1));
  } else if (method == SubpixelMethod::Gauss3) {
    const T xm = at(-1, 0), xp = at(1, 0), ym = at(0, -1), yp = at(0, 1);
    if (xm > T(0) && xp > T(0) && ym > T(0) && yp > T(0) && peak > T(0)) {
      ox = gauss3_offset(xm, peak, xp);
      oy = gauss3_offset(ym, peak, yp);
    } else {
      ox = parabolic_offset(xm, peak, xp);
      oy = parabolic_offset(ym, peak, yp);
    }
  } else if (method == SubpixelMethod::Centroid3 && peak > T(0)) {
    T w = 0, sx = 0, sy = 0;
    for (int b = -1; b <= 1; ++b)
      for (int a = -1; a <= 1; ++a) {
        const T v = at(a, b) / peak;
        w += v;
        sx += v * static_cast<T>(a);
        sy += v * static_cast<T>(b);
      }
    if (w > T(0)) {
      ox = sx / w;
      oy = sy / w;
    }
  }
}

} // namespace frost::geom
