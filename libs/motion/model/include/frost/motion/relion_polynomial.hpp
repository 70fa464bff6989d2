#pragma once
/// @file relion_polynomial.hpp
/// @brief RELION's local motion model (`ThirdOrderPolynomialModel`, `_rlnMotionModelVersion 1`)
/// and its least-squares fit to frost's local field, for the `--ostar_motion` export
/// (docs/movie_align.md#relion-and-xmipp-exports, docs/formats.md#motion-star).
///
/// Conventions, as RELION's `Micrograph::getShiftAt` and `ThirdOrderPolynomialModel::getShiftAt`
/// (src/micrograph_model.cpp) evaluate them; per axis, 18 coefficients c:
///   s(t, x', y') = sum_{k=0..5} (c[3k] t + c[3k+1] t² + c[3k+2] t³) · m_k,
///   m = (1, x', x'², y', y'², x'y'),
/// t = frame − rlnMicrographStartFrame (both 1-based: 0 at the first aligned frame, one per
/// frame), x' = x / rlnImageSizeX − 0.5 with x the 0-based pixel column of the raw movie (y'
/// likewise with rows and rlnImageSizeY), s in raw (unbinned) pixels, the shift to apply
/// (docs/conventions.md#shifts). RELION adds s to the frame's global shift; both are 0 at t = 0. (RELION's
/// own motion correction fits in its pre-scaled pixels when it bins early; frost fits in raw
/// pixels, which is what a reader adding s to the raw-pixel global shift expects.)
#include <array>
#include <vector>

#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// Coefficients per axis: {t, t², t³} × {1, x', x'², y', y'², x'y'}, time power fastest.
inline constexpr int kRelionPolynomialTerms = 18;

/// @brief RELION's third-order polynomial: `cx` are _rlnMotionModelCoeff 0-17, `cy` 18-35.
struct RelionPolynomial {
  std::array<double, kRelionPolynomialTerms> cx{}, cy{};
  /// s(t, x', y') [raw px] at frame offset t and normalised position (x', y').
  Vec2 evaluate(double t, double xn, double yn) const;
};

/// One point the polynomial should pass through.
struct PolynomialSample {
  double t = 0;         ///< frames after the first aligned frame
  double xn = 0, yn = 0; ///< normalised position x / width − 0.5, y / height − 0.5
  Vec2 shift;           ///< local shift to apply, relative to the first aligned frame [raw px]
};

struct RelionPolynomialFit {
  RelionPolynomial polynomial;
  double rmsd_x = 0, rmsd_y = 0; ///< root mean square residual per axis over all samples [raw px]
  double rmsd = 0;               ///< sqrt(mean |residual|²) [raw px]
  int samples = 0;
  /// Highest power of t fitted: 3, or the number of distinct t > 0 when fewer than 3 (a 3-frame
  /// movie cannot determine t³; those coefficients stay 0).
  int time_degree = 0;
};

/// @brief Unweighted least squares of the 18 coefficients per axis (normal equations, Jacobi
/// scaled, pivoted Cholesky). frost::Error(Runtime) when the samples leave a coefficient of the
/// fitted degree undetermined (fewer than 3 distinct x' or y' values).
RelionPolynomialFit fit_relion_polynomial(const std::vector<PolynomialSample>& samples);

/// @brief The local motion of `model` as RELION sees it: on a grid × grid lattice of cell
/// centres over the raw frame (width × height raw px) and at every aligned frame t, the total
/// shift minus the global shift, both re-referenced to the first aligned frame (t = 0), in raw
/// px. Subtracting the first frame's value at the same output pixel is RELION's own
/// re-referencing of its patch tracks; the exact change of reference geometry differs from it
/// only by (field gradient × first-frame shift), negligible for smooth fields. Empty when the
/// model has no local field.
std::vector<PolynomialSample> relion_polynomial_samples(const MotionModel& model, double width, double height,
                                                        int grid = 16);

} // namespace frost::motion
