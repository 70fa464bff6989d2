// CPU (FFTW) against GPU (cuFFT) on random data at movie- and particle-like sizes: the shared
// layout conventions make the outputs comparable element by element. Skips without a GPU.
#include <ostream>

#include "fft_test_util.hpp"

namespace frost::fft {
namespace {

using namespace test_util;

// Float parity for element-wise results (docs/fft_advisor.md#cpu-tests): both libraries are accurate to ~1e-7
// relative at these sizes (~1e-6 for the Bluestein paths of sizes with large prime factors).
constexpr double kParityTol = 1e-5;

struct ParityCase {
  Shape shape;
  Placement placement;
};
// Readable test parameters in gtest's output (instead of the struct's bytes).
void PrintTo(const ParityCase& c, std::ostream* os) {
  *os << to_string(c.shape) << (c.placement == Placement::InPlace ? " in place" : " out of place");
}

class FftParity : public ::testing::TestWithParam<ParityCase> {
protected:
  void SetUp() override {
    FROST_REQUIRE_GPU();
    cpu_ = make_planner(Backend::Cpu);
    gpu_ = make_planner(Backend::Cuda, 0);
  }
  template <class In, class Out>
  double compare(const FftSpec& s, const std::vector<In>& in, std::vector<Out>* cpu_out = nullptr) {
    const auto a = run<In, Out>(*cpu_, cpu_->plan(s), in);
    const auto b = run<In, Out>(*gpu_, gpu_->plan(s), in);
    if (cpu_out) *cpu_out = a;
    return rel_l2(b, a);
  }
  std::shared_ptr<Planner> cpu_, gpu_;
};

TEST_P(FftParity, CpuAndGpuAgree) {
  const ParityCase c = GetParam();
  const FftSpec r2c = FftSpec::r2c(c.shape, c.placement);
  auto x = test::random_floats(static_cast<std::size_t>(c.shape.total()), 2024);
  if (c.placement == Placement::InPlace) x = pad_rows(x, r2c);
  std::vector<Complex> spectrum;
  EXPECT_LT((compare<float, Complex>(r2c, x, &spectrum)), kParityTol) << to_string(r2c);
  // C2R of a real spectrum (Hermitian up to float rounding), as in every real pipeline.
  const FftSpec c2r = r2c.inverse();
  EXPECT_LT((compare<Complex, float>(c2r, spectrum)), kParityTol) << to_string(c2r);
  for (Direction d : {Direction::Forward, Direction::Inverse}) {
    const FftSpec c2c = FftSpec::c2c(c.shape, d, c.placement);
    const auto z = random_complex(static_cast<std::size_t>(c.shape.total()), 77);
    EXPECT_LT((compare<Complex, Complex>(c2c, z)), kParityTol) << to_string(c2c);
  }
}

INSTANTIATE_TEST_SUITE_P(
    MovieAndParticleSizes, FftParity,
    ::testing::Values(ParityCase{Shape::image(512, 480, 3), Placement::OutOfPlace},
                      ParityCase{Shape::image(512, 480, 3), Placement::InPlace},
                      ParityCase{Shape::volume(64, 64, 64), Placement::OutOfPlace},
                      ParityCase{Shape::volume(64, 64, 64), Placement::InPlace},
                      ParityCase{Shape::image(128, 128, 64), Placement::OutOfPlace},
                      ParityCase{Shape::image(3838, 3710), Placement::OutOfPlace},
                      ParityCase{Shape::volume(65, 63, 61), Placement::OutOfPlace}),
    [](const ::testing::TestParamInfo<ParityCase>& param_info) {
      const Shape& s = param_info.param.shape;
      return std::to_string(s.x) + "x" + std::to_string(s.y) + "x" + std::to_string(s.z) + "b" +
             std::to_string(s.n) + (param_info.param.placement == Placement::InPlace ? "InPlace" : "OutOfPlace");
    });

} // namespace
} // namespace frost::fft
