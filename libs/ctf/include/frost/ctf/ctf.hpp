#pragma once
/// @file ctf.hpp
/// @brief The contrast transfer function in RELION's convention (docs/reconstruct_fourier.md#ctf-modes),
/// as FROST_HD inline math shared by CPU loops and CUDA kernels.
///
/// gamma(k) = -pi*lambda*df(theta)*|k|^2 + (pi/2)*Cs*lambda^3*|k|^4 - phi - atan(A/sqrt(1-A^2))
/// CTF(k)   = -sin(gamma) * exp(-B*|k|^2/4), so CTF(0) = A > 0 (positive amplitude contrast).
/// df(theta) = (dU+dV)/2 + (dU-dV)/2 * cos(2(theta - theta_ast)); positive df = underfocus.
#include <cmath>

#include "frost/core/hd.hpp"

namespace frost::ctf {

/// Microscope and per-image parameters, in the units of the metadata files.
struct CtfParams {
  double defocus_u = 20000.0;      ///< [A], positive = underfocus
  double defocus_v = 20000.0;      ///< [A]
  double defocus_angle = 0.0;      ///< astigmatism azimuth [deg]
  double voltage = 300.0;          ///< [kV]
  double cs = 2.7;                 ///< spherical aberration [mm]
  double amplitude_contrast = 0.1; ///< fraction A (|Q0| for old Xmipp files)
  double phase_shift = 0.0;        ///< phase plate shift [deg]
  double bfactor = 0.0;            ///< envelope B [A^2]
};

/// Relativistic electron wavelength [A] for an acceleration voltage in kV.
inline double electron_wavelength(double voltage_kv) {
  const double v = voltage_kv * 1e3;
  return 12.2643247 / std::sqrt(v * (1.0 + 0.978466e-6 * v));
}

/// Precomputed constants of one CtfParams: evaluating the CTF then costs a few multiplies, a
/// cosine for astigmatism and a sine.
struct CtfEvaluator {
  float k1;        ///< pi * lambda
  float k2;        ///< (pi/2) * Cs[A] * lambda^3
  float k3;        ///< phi + atan(A / sqrt(1 - A^2))
  float mean_df;   ///< (dU + dV) / 2
  float half_diff; ///< (dU - dV) / 2
  float azimuth;   ///< [rad]
  float bfactor_quarter; ///< B / 4

  static CtfEvaluator from(const CtfParams& p) {
    const double pi = 3.14159265358979323846;
    const double lambda = electron_wavelength(p.voltage);
    const double a = p.amplitude_contrast < 0 ? -p.amplitude_contrast : p.amplitude_contrast;
    CtfEvaluator e{};
    e.k1 = static_cast<float>(pi * lambda);
    e.k2 = static_cast<float>(pi / 2.0 * (p.cs * 1e7) * lambda * lambda * lambda);
    e.k3 = static_cast<float>(p.phase_shift * pi / 180.0 + std::atan(a / std::sqrt(1.0 - a * a)));
    e.mean_df = static_cast<float>(0.5 * (p.defocus_u + p.defocus_v));
    e.half_diff = static_cast<float>(0.5 * (p.defocus_u - p.defocus_v));
    e.azimuth = static_cast<float>(p.defocus_angle * pi / 180.0);
    e.bfactor_quarter = static_cast<float>(p.bfactor / 4.0);
    return e;
  }

  /// CTF at spatial frequency (kx, ky) in 1/A.
  FROST_HD float operator()(float kx, float ky) const {
    const float k2sq = kx * kx + ky * ky;
    const float theta = atan2f(ky, kx);
    const float df = mean_df + half_diff * cosf(2.f * (theta - azimuth));
    const float gamma = -k1 * df * k2sq + k2 * k2sq * k2sq - k3;
    const float envelope = bfactor_quarter != 0.f ? expf(-bfactor_quarter * k2sq) : 1.f;
    return -sinf(gamma) * envelope;
  }
};

} // namespace frost::ctf
