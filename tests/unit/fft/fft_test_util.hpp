#pragma once
// Helpers of the frost::fft suites: a brute-force DFT in double, layout conversions, staging of
// host data through any backend, and the backend traits the typed suites are instantiated with.
#include <complex>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/fft/fft.hpp"
#include "frost/test/support.hpp"

namespace frost::fft::test_util {

using cd = std::complex<double>;

/// Backend traits: typed suites are written once and instantiated for both (docs/fft_advisor.md#cpu-tests).
struct CpuBackend {
  static constexpr Backend value = Backend::Cpu;
};
struct CudaBackend {
  static constexpr Backend value = Backend::Cuda;
};
struct BackendNames {
  template <class T>
  static std::string GetName(int) {
    return T::value == Backend::Cpu ? "Cpu" : "Cuda";
  }
};

/// Fixture of the typed suites: a fresh planner of the backend (own plan cache); the CUDA
/// instantiation skips with the reason when no GPU can be used.
template <class B>
class FftBackendTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (B::value == Backend::Cuda) {
      FROST_REQUIRE_GPU();
    }
    planner_ = make_planner(B::value, 0);
  }
  Planner& planner() { return *planner_; }
  std::shared_ptr<Planner> planner_;
};

/// Runs `f` and checks it throws frost::Error of class `code` whose message contains `text`.
template <class F>
void expect_error(F&& f, ExitCode code, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "no frost::Error thrown; expected one containing '" << text << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

/// Full DFT of one nx*ny*nz complex signal by direct summation, sign -1 (forward) or +1.
std::vector<cd> direct_dft(const std::vector<cd>& in, index_t nx, index_t ny, index_t nz, int sign);
/// Half spectrum (x/2+1 fastest) of real signals, batched, computed with direct_dft.
std::vector<cd> direct_r2c(const std::vector<double>& real, const FftSpec& s);
/// Unnormalised real output of the inverse transform of batched half spectra (Hermitian input).
std::vector<double> direct_c2r(const std::vector<cd>& half, const FftSpec& s);
/// Batched full complex DFT in the spec's direction.
std::vector<cd> direct_c2c(const std::vector<cd>& in, const FftSpec& s);

/// Dense real rows <-> rows padded to 2*(x/2+1) (the in-place layout), batched.
std::vector<float> pad_rows(const std::vector<float>& dense, const FftSpec& s);
std::vector<float> unpad_rows(const std::vector<float>& padded, const FftSpec& s);

std::vector<double> to_double(const std::vector<float>& v);
std::vector<cd> to_double(const std::vector<Complex>& v);
std::vector<Complex> to_float(const std::vector<cd>& v);
std::vector<Complex> random_complex(std::size_t n, std::uint32_t seed);

/// Relative l2 error of `a` against the reference `ref` (complex values as pairs of reals).
double rel_l2(const std::vector<Complex>& a, const std::vector<cd>& ref);
double rel_l2(const std::vector<Complex>& a, const std::vector<Complex>& ref);
double rel_l2(const std::vector<float>& a, const std::vector<double>& ref);
double rel_l2(const std::vector<float>& a, const std::vector<float>& ref);

/// Uploads `in` to buffers of the planner's space, executes, downloads the output. In place,
/// one buffer serves both. `input_after`, when given, receives the input buffer afterwards.
template <class In, class Out>
std::vector<Out> run(Planner& planner, const FftPlan& plan, const std::vector<In>& in,
                     std::vector<In>* input_after = nullptr, const ExecOptions& opts = {}) {
  const FftSpec& s = plan.spec();
  EXPECT_EQ(in.size() * sizeof(In), s.input_bytes()) << to_string(s);
  std::vector<Out> out(s.output_bytes() / sizeof(Out));
  FftBuffer a = planner.allocate(s.placement == Placement::InPlace ? s.data_bytes() : s.input_bytes());
  a.upload(in.data(), s.input_bytes(), opts);
  if (s.placement == Placement::InPlace) {
    plan.execute(a.data(), a.data(), opts);
    a.download(out.data(), s.output_bytes(), opts);
  } else {
    FftBuffer b = planner.allocate(s.output_bytes());
    plan.execute(a.data(), b.data(), opts);
    b.download(out.data(), s.output_bytes(), opts);
  }
  if (input_after) {
    input_after->resize(in.size());
    a.download(input_after->data(), s.input_bytes(), opts);
  }
  return out;
}

} // namespace frost::fft::test_util
