#pragma once
/// @file fftw_double.hpp
/// @brief The two transforms of the double build (frost_reconstruction_f64) through FFTW's
/// double API, because frost::fft is float only: the forward 2-D R2C of the sample preparation
/// and the inverse 3-D C2R of the finalisation. Unnormalised and planned with FFTW_ESTIMATE
/// (deterministic), as the float path plans them.
#include <complex>

#include "frost/reconstruction/precision.hpp"

#if !FROST_RECON_DOUBLE
#error "fftw_double.hpp belongs to the double build only"
#endif

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// R2C of a P x P real image (rows of P) into P rows of P/2 + 1 values. One object may run on
/// several threads at once: it executes on the arrays it is given.
class FftwImageR2C {
public:
  explicit FftwImageR2C(int P);
  ~FftwImageR2C();
  FftwImageR2C(const FftwImageR2C&) = delete;
  FftwImageR2C& operator=(const FftwImageR2C&) = delete;
  void execute(double* in, std::complex<double>* out) const;

private:
  void* plan_ = nullptr; ///< fftw_plan, kept opaque so that fftw3.h stays in the .cpp
};

/// In-place C2R of a P^3 half spectrum (P/2 + 1 values per row) into the padded real layout
/// (2 (P/2 + 1) doubles per row), the layout of frost::fft's in-place C2R.
void fftw_c2r_3d_in_place(std::complex<double>* data, int P);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
