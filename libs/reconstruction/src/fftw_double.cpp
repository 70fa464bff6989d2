#include "fftw_double.hpp"

#include <fftw3.h>

#include <mutex>

#include "frost/core/error.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace {

/// FFTW's planner is not thread-safe; preparers are made on several threads.
std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}

} // namespace

FftwImageR2C::FftwImageR2C(int P) {
  std::lock_guard<std::mutex> lock(planner_mutex());
  double* in = fftw_alloc_real(std::size_t(P) * P);
  fftw_complex* out = fftw_alloc_complex(std::size_t(P) * (P / 2 + 1));
  // FFTW_UNALIGNED: execute() runs the plan on other arrays, whose alignment is not known.
  plan_ = fftw_plan_dft_r2c_2d(P, P, in, out, FFTW_ESTIMATE | FFTW_UNALIGNED);
  fftw_free(in);
  fftw_free(out);
  FROST_EXPECTS(plan_ != nullptr, "FFTW double R2C plan");
}

FftwImageR2C::~FftwImageR2C() {
  std::lock_guard<std::mutex> lock(planner_mutex());
  fftw_destroy_plan(static_cast<fftw_plan>(plan_));
}

void FftwImageR2C::execute(double* in, std::complex<double>* out) const {
  fftw_execute_dft_r2c(static_cast<fftw_plan>(plan_), in, reinterpret_cast<fftw_complex*>(out));
}

void fftw_c2r_3d_in_place(std::complex<double>* data, int P) {
  fftw_complex* c = reinterpret_cast<fftw_complex*>(data);
  fftw_plan plan;
  {
    std::lock_guard<std::mutex> lock(planner_mutex());
    plan = fftw_plan_dft_c2r_3d(P, P, P, c, reinterpret_cast<double*>(data), FFTW_ESTIMATE);
  }
  FROST_EXPECTS(plan != nullptr, "FFTW double C2R plan");
  fftw_execute(plan);
  std::lock_guard<std::mutex> lock(planner_mutex());
  fftw_destroy_plan(plan);
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
