#pragma once
/// @file blob.hpp
/// @brief The Kaiser-Bessel interpolation kernel ("blob") of Fourier reconstruction
/// (docs/reconstruct_fourier.md#the-blob-kernel): value, lookup table, 3-D Fourier transform and the
/// gridding correction derived from it.
///
/// Everything marked FROST_HD is plain arithmetic (no std:: calls) so the CUDA kernels can use
/// it. Internally the Bessel series run in double precision.
#include <cmath>
#include <vector>

#include "frost/reconstruction/precision.hpp"
#include "frost/core/hd.hpp"
#include "frost/core/image.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// Blob parameters. Defaults follow the Xmipp/RELION code: a = 1.9, m = 0, alpha = 15.
struct BlobParams {
  double radius = 1.9; ///< a, in (padded) grid samples
  int order = 0;       ///< m, supported 0..4
  double alpha = 15.0; ///< shape parameter
};

namespace detail {

/// Gamma(nu + 1) for nu an integer or half-integer >= 0 (nu2 = 2*nu).
FROST_HD inline double gamma_nu_plus_one(int nu2) {
  // Gamma(1) = 1, Gamma(3/2) = sqrt(pi)/2, then Gamma(x + 1) = x Gamma(x).
  double g = (nu2 % 2 == 0) ? 1.0 : 0.88622692545275801365; // sqrt(pi)/2
  for (int k2 = (nu2 % 2 == 0) ? 2 : 3; k2 <= nu2; k2 += 2) g *= 0.5 * k2;
  return g;
}

/// S_nu(s) = sum_k (s/4)^k / (k! Gamma(k + nu + 1)), with nu = nu2/2 >= 0.
/// Then I_nu(x) = (x/2)^nu S_nu(x^2) and J_nu(x) = (x/2)^nu S_nu(-x^2).
/// Summed in double; all terms are positive for s >= 0 (no cancellation). For s < 0 the
/// alternating series loses about exp(sqrt(-s)) relative, so callers keep -s small.
FROST_HD inline double bessel_series(int nu2, double s) {
  const double nu = 0.5 * nu2;
  const double q = 0.25 * s;
  double term = 1.0 / gamma_nu_plus_one(nu2);
  double sum = term;
  const double aq = q < 0 ? -q : q;
  for (int k = 1; k < 1000; ++k) {
    term *= q / (k * (k + nu));
    sum += term;
    const double at = term < 0 ? -term : term;
    const double as = sum < 0 ? -sum : sum;
    if (k > aq && at <= 1e-17 * as) break;
  }
  return sum;
}

/// J_{n+1/2}(x) / x^{n+1/2} for x > 0 from the closed forms of the spherical Bessel functions
/// (j_0 = sin x / x, j_1 = sin x / x^2 - cos x / x, upward recurrence; stable for x > n).
FROST_HD inline double bessel_j_half_scaled(int n, double x) {
  double j0 = sin(x) / x;
  double j1 = sin(x) / (x * x) - cos(x) / x;
  double jn = j0;
  if (n >= 1) {
    jn = j1;
    for (int l = 1; l < n; ++l) {
      const double j2 = (2 * l + 1) / x * j1 - j0;
      j0 = j1;
      j1 = j2;
      jn = j2;
    }
  }
  // J_{n+1/2}(x) = sqrt(2x/pi) j_n(x); divide by x^{n+1/2}.
  double xn = 1.0;
  for (int l = 0; l < n; ++l) xn *= x;
  return 0.79788456080286535588 * jn / xn; // sqrt(2/pi)
}

} // namespace detail

/// Modified Bessel function of the first kind I_m(x), integer m >= 0, x >= 0 (power series in
/// double; relative error ~1e-15 for x <= 50).
FROST_HD inline double bessel_i(int m, double x) {
  double h = 1.0;
  for (int i = 0; i < m; ++i) h *= 0.5 * x;
  return h * detail::bessel_series(2 * m, x * x);
}

/// I_m(x) for x >= 0 from I_0 and I_1 and the recurrence I_{n+1} = I_{n-1} - (2n/x) I_n, the
/// route Xmipp takes for the on-the-fly kernel path. Same accuracy as bessel_i here because
/// I_0 and I_1 are the series values; kept for the recurrence tests.
FROST_HD inline double bessel_i_recurrence(int m, double x) {
  double i0 = bessel_i(0, x);
  if (m == 0) return i0;
  double i1 = bessel_i(1, x);
  if (m == 1 || x == 0.0) return m == 1 ? i1 : 0.0;
  for (int n = 1; n < m; ++n) {
    const double i2 = i0 - (2.0 * n / x) * i1;
    i0 = i1;
    i1 = i2;
  }
  return i1;
}

/// Blob value K(r) = u^m I_m(alpha u) / I_m(alpha), u = sqrt(1 - (r/a)^2), for r <= a; else 0.
/// K(0) = 1. `i_m_alpha` is I_m(alpha) (pass it precomputed in loops).
FROST_HD inline double blob_value(double r, const BlobParams& p, double i_m_alpha) {
  const double t = r / p.radius;
  if (t > 1.0 || t < -1.0) return 0.0;
  const double u = sqrt(1.0 - t * t);
  double um = 1.0;
  for (int i = 0; i < p.order; ++i) um *= u;
  return um * bessel_i(p.order, p.alpha * u) / i_m_alpha;
}

/// Blob value, computing I_m(alpha) itself.
FROST_HD inline double blob_value(double r, const BlobParams& p) {
  return blob_value(r, p, bessel_i(p.order, p.alpha));
}

/// Blob value from a squared distance (what the gather and scatter loops have).
FROST_HD inline double blob_value_sq(double r2, const BlobParams& p, double i_m_alpha) {
  const double a2 = p.radius * p.radius;
  if (r2 > a2) return 0.0;
  const double u = sqrt(1.0 - r2 / a2);
  double um = 1.0;
  for (int i = 0; i < p.order; ++i) um *= u;
  return um * bessel_i(p.order, p.alpha * u) / i_m_alpha;
}

/// @brief Fourier transform of the blob in `dims` dimensions (Lewitt), omega in cycles per grid
/// sample: K^(w) = (2 pi)^{n/2} a^n alpha^m I_{n/2+m}(sigma) / (I_m(alpha) sigma^{n/2+m}),
/// sigma = sqrt(alpha^2 - (2 pi a w)^2); J_{n/2+m}(sigma') with sigma' = sqrt((2 pi a w)^2 -
/// alpha^2) beyond 2 pi a w > alpha. dims = 3 is the radial blob; dims = 1 is one factor of the
/// separable kernel (docs/reconstruct_fourier.md#the-separable-kernel). Uses the correct I_m(alpha)
/// constant for every order (Xmipp's m = 2 uses I_0(alpha)), so K^(0) is exactly the integral of K.
FROST_HD inline double blob_fourier_nd(double omega, const BlobParams& p, double i_m_alpha, int dims) {
  const double two_pi = 6.283185307179586477;
  const double w = two_pi * p.radius * omega;
  const double s = p.alpha * p.alpha - w * w; // sigma^2, may be negative
  const int nu2 = 2 * p.order + dims;         // nu = m + n/2
  // I_nu(sigma)/sigma^nu = 2^-nu S_nu(sigma^2); the same holds with J for s < 0.
  double ratio;
  if (s >= -36.0) {
    double two_pow = 1.0; // 2^-nu
    for (int i = 0; i < p.order + (dims - 1) / 2; ++i) two_pow *= 0.5;
    two_pow *= 0.70710678118654752440; // 2^-1/2 (dims odd)
    ratio = two_pow * detail::bessel_series(nu2, s);
  } else {
    ratio = detail::bessel_j_half_scaled(p.order + (dims - 1) / 2, sqrt(-s));
  }
  double am = 1.0;
  for (int i = 0; i < p.order; ++i) am *= p.alpha;
  double an = 1.0, two_pi_n2 = 1.0;
  for (int i = 0; i < dims; ++i) {
    an *= p.radius;
    two_pi_n2 *= 2.5066282746310005024; // sqrt(2 pi)
  }
  return two_pi_n2 * an * am * ratio / i_m_alpha;
}

/// @brief 3-D Fourier transform of the blob (blob_fourier_nd with dims = 3).
FROST_HD inline double blob_fourier(double omega, const BlobParams& p, double i_m_alpha) {
  return blob_fourier_nd(omega, p, i_m_alpha, 3);
}

FROST_HD inline double blob_fourier(double omega, const BlobParams& p) {
  return blob_fourier(omega, p, bessel_i(p.order, p.alpha));
}

/// Gridding correction factor kappa(r) = K^(r/P) / K^(0) for a voxel r pixels from the centre
/// of a reconstruction made on a padded grid of P samples (step 7 of
/// docs/reconstruct_fourier.md#finalisation); divide by it.
FROST_HD inline double gridding_correction(double r, double padded_size, const BlobParams& p,
                                           double i_m_alpha) {
  return blob_fourier(r / padded_size, p, i_m_alpha) / blob_fourier(0.0, p, i_m_alpha);
}

/// Device-copyable view of a BlobTable: T Reals sampled uniformly in squared distance,
/// entry i = scale * K(a sqrt(i/(T-1))).
struct BlobTableView {
  const Real* data = nullptr;
  int size = 0;            ///< T
  Real inv_step = 0;       ///< (T-1)/a^2
  Real radius2 = 0;        ///< a^2

  /// Xmipp lookup: entry floor(d2 (T-1)/a^2 + 0.5); 0 beyond the radius.
  FROST_HD Real nearest(Real d2) const {
    if (d2 > radius2) return Real(0);
    const int i = static_cast<int>(d2 * inv_step + Real(0.5));
    return data[i < size ? i : size - 1];
  }
  /// Linear interpolation between the two neighbouring entries; 0 beyond the radius.
  FROST_HD Real linear(Real d2) const {
    if (d2 > radius2) return Real(0);
    const Real x = d2 * inv_step;
    int i = static_cast<int>(x);
    if (i >= size - 1) return data[size - 1];
    const Real f = x - static_cast<Real>(i);
    return data[i] + f * (data[i + 1] - data[i]);
  }
};

/// @brief Host-owned blob lookup table (Xmipp blobTableSqrt): T entries, uniform in squared
/// distance over [0, a^2]. With `normalise` (the default) the entries carry iw0 = 1/K^(0), so
/// that the kernel integrates to 1 and entry 0 = iw0 (docs/reconstruct_fourier.md#the-blob-kernel, U2).
class BlobTable {
public:
  static constexpr int kDefaultSize = 10000;

  explicit BlobTable(const BlobParams& p = {}, int size = kDefaultSize, bool normalise = true);

  const BlobParams& params() const noexcept { return params_; }
  /// The factor every entry carries: iw0 when normalised, else 1.
  double scale() const noexcept { return scale_; }
  int size() const noexcept { return static_cast<int>(values_.size()); }
  const std::vector<Real>& values() const noexcept { return values_; }
  BlobTableView view() const noexcept;

  Real nearest(Real d2) const { return view().nearest(d2); }
  Real linear(Real d2) const { return view().linear(d2); }

private:
  BlobParams params_;
  double scale_ = 1.0;
  std::vector<Real> values_;
};

/// @brief Host-owned table of the separable kernel's window factors (WindowTableView in scatter.hpp,
/// docs/reconstruct_fourier.md#the-separable-kernel): `rows` rows of 4 Reals for a window of
/// `window` voxels (3 or 4), the 1-D factor normalised in 1-D (1/K1^(0)), computed in double.
class WindowTable {
public:
  static constexpr int kDefaultRows = 257;
  WindowTable(const BlobParams& p, int window, int rows = kDefaultRows);
  const std::vector<Real>& values() const noexcept { return values_; }
  int rows() const noexcept { return rows_; }
  int window() const noexcept { return window_; }
  double scale() const noexcept { return scale_; }

private:
  int rows_ = 0, window_ = 3;
  double scale_ = 1.0;
  std::vector<Real> values_;
};

/// Accuracy of a table against direct evaluation on `samples` uniform radii in [0, a]:
/// errors relative to the direct value (restricted to where K >= floor * K(0)) and errors
/// relative to the peak K(0).
struct TableAccuracy {
  double max_rel_nearest = 0, max_rel_linear = 0; ///< max |table - K| / K where K >= floor
  double max_abs_nearest = 0, max_abs_linear = 0; ///< max |table - K| / K(0)
};
TableAccuracy measure_table_accuracy(const BlobTable& table, int samples = 100000,
                                     double floor = 1e-3);

/// @brief Divides a real-space volume (box N, centre at index floor(N/2) on each axis) by the
/// gridding correction kappa(r) of a reconstruction on a padded grid of `padded_size` samples.
void apply_gridding_correction(View<Real> volume, const BlobParams& p, double padded_size);

/// @brief The gridding correction of the separable kernel: divides voxel (x, y, z) by
/// kappa1(x) kappa1(y) kappa1(z), kappa1(r) = K1^(r/P)/K1^(0) the 1-D transform of one factor
/// (blob_fourier_nd with dims = 1), coordinates from the centre floor(N/2).
void apply_separable_gridding_correction(View<Real> volume, const BlobParams& p, double padded_size);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
