#pragma once
/// @file motion_model.hpp
/// @brief The motion of one movie as frost stores it (docs/movie_align.md#the-b-spline-motion-model,
/// #querying-the-motion): per-frame global shifts plus an optional cubic B-spline field, queried as
/// the shift to apply at any pixel and any (fractional) frame.
///
/// Conventions (docs/conventions.md#shifts, docs/movie_align.md#conventions): the specimen point seen
/// at output pixel x is at x + d_t(x) in frame t; the stored quantity is the shift to apply s_t(x) =
/// -d_t(x), so the aligned frame is A_t(x) = F_t(x - s_t(x)). Pixel centres are at integer coordinates,
/// x is the column index. Shifts are relative to the reference frame (s = 0 there for the global part).
#include <optional>
#include <vector>

#include "frost/core/hd.hpp"

namespace frost::motion {

struct Vec2 {
  double x = 0, y = 0;
};

/// Cubic B-spline beta(u) = 2/3 - u^2 + |u|^3/2 for |u| < 1, (2 - |u|)^3/6 for 1 <= |u| < 2, else 0.
FROST_HD inline double bspline_basis(double u) {
  const double a = u < 0 ? -u : u;
  if (a < 1.0) return 2.0 / 3.0 - a * a + 0.5 * a * a * a;
  if (a < 2.0) {
    const double b = 2.0 - a;
    return b * b * b / 6.0;
  }
  return 0.0;
}

/// @brief A cubic B-spline vector field over (x, y, t) (docs/movie_align.md#the-b-spline-motion-model).
/// Control points lx, ly, lt (each counting the two extra end points, >= 3), knot spacings hx =
/// X/(lx-3), hy = Y/(ly-3), ht = N/(lt-3) (the full extent when l = 3), control indices -1..l-2,
/// coefficient storage index (n+1)·lx·ly + (m+1)·lx + (l+1) for time n, row m, column l.
struct BSplineField {
  int lx = 0, ly = 0, lt = 0;
  double hx = 1, hy = 1, ht = 1;
  std::vector<double> cx, cy; ///< lx·ly·lt coefficients per component [processing px]

  /// Grid for a frame of width x height processing pixels and `frames` frames, coefficients 0.
  /// frost::Error(Usage) when a count is < 3 or an extent is not positive.
  static BSplineField make(int lx, int ly, int lt, double width, double height, double frames);
  int size() const { return lx * ly * lt; }
  int index(int n, int m, int l) const { return (n + 1) * lx * ly + (m + 1) * lx + (l + 1); }
  /// Sum of c · beta(t/ht - n) beta(y/hy - m) beta(x/hx - l) over the 4x4x4 non-zero terms.
  Vec2 evaluate(double x, double y, double t) const;
};

/// What the B-spline describes (--local-model).
enum class LocalModelKind {
  Residual, ///< s(x,y,t) = global shift of frame t + field(x,y,t) (default)
  Total     ///< s(x,y,t) = field(x,y,t) (Xmipp)
};

/// @brief The motion of one movie in processing (binned) pixels.
struct MotionModel {
  std::vector<Vec2> global;   ///< shift to apply per aligned frame (index 0 = first aligned frame)
  int first_frame = 0;        ///< absolute movie frame of global[0]
  int reference = 0;          ///< index into `global` of the reference frame
  std::optional<BSplineField> local;
  LocalModelKind kind = LocalModelKind::Residual;
  double binning = 1.0;       ///< raw px = processing px · binning

  /// Number of aligned frames.
  int frames() const { return static_cast<int>(global.size()); }
  /// Global shift of aligned-frame index t, linearly interpolated for fractional t and clamped
  /// to the first/last frame; (0, 0) when `global` is empty.
  Vec2 global_shift(double t) const;
  /// Shift to apply at processing pixel (x, y) of aligned-frame index t (fractional t: the
  /// global part is interpolated linearly, clamped to the first/last frame). Residual kind:
  /// global_shift(t) + local->evaluate(x, y, t); Total kind: local->evaluate(x, y, t). Without
  /// a local field both kinds return global_shift(t).
  Vec2 shift(double x, double y, double t) const;
  /// The same for raw-pixel coordinates, returning raw pixels.
  Vec2 shift_raw(double x_raw, double y_raw, double t) const;
};

} // namespace frost::motion
