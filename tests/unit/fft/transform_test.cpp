// Numerical correctness of frost::fft, written once and run on every backend: hand cases, a
// brute-force DFT reference, the round trip, batching, placement and Hermitian symmetry.
#include <algorithm>
#include <cmath>

#include "fft_test_util.hpp"

namespace frost::fft {
namespace {

using namespace test_util;

// Float transforms of these sizes are accurate to ~1e-7 relative; 1e-5 leaves two decades of
// margin yet catches any layout, sign or scaling mistake (those give errors of order 1).
constexpr double kRefTol = 1e-5;
// Two float computations of the same transform differ only by rounding (~1e-7).
constexpr double kSameTol = 1e-6;

template <class B>
class FftNumerics : public FftBackendTest<B> {};
using Backends = ::testing::Types<CpuBackend, CudaBackend>;
TYPED_TEST_SUITE(FftNumerics, Backends, BackendNames);

/// Real input laid out for `s` (padded rows in place).
std::vector<float> real_input(const std::vector<float>& dense, const FftSpec& s) {
  return s.placement == Placement::InPlace ? pad_rows(dense, s) : dense;
}
/// Dense real output of `s` (padding removed in place).
std::vector<float> real_output(const std::vector<float>& out, const FftSpec& s) {
  return s.placement == Placement::InPlace ? unpad_rows(out, s) : out;
}

TYPED_TEST(FftNumerics, HandCasesImpulseAndConstant) {
  // By hand: the DFT of a unit impulse at the origin is 1 at every frequency; the DFT of a
  // constant 1 is N at k = 0 and 0 elsewhere; and the inverse of a flat spectrum of ones is
  // N at the origin and 0 elsewhere.
  for (Placement p : {Placement::OutOfPlace, Placement::InPlace}) {
    const FftSpec s = FftSpec::r2c(Shape::image(8, 6), p);
    const FftPlan plan = this->planner().plan(s);
    std::vector<float> impulse(48, 0.f);
    impulse[0] = 1.f;
    for (const Complex& v : run<float, Complex>(this->planner(), plan, real_input(impulse, s))) {
      EXPECT_NEAR(v.real(), 1.f, 1e-6);
      EXPECT_NEAR(v.imag(), 0.f, 1e-6);
    }
    const auto dc = run<float, Complex>(this->planner(), plan, real_input(std::vector<float>(48, 1.f), s));
    EXPECT_NEAR(dc[0].real(), 48.f, 1e-4);
    for (std::size_t i = 1; i < dc.size(); ++i) EXPECT_NEAR(std::abs(dc[i]), 0.f, 1e-5) << i;

    const FftSpec inv = s.inverse();
    const auto flat = std::vector<Complex>(static_cast<std::size_t>(inv.input_shape().total()), Complex(1.f, 0.f));
    const auto back = real_output(run<Complex, float>(this->planner(), this->planner().plan(inv), flat), inv);
    EXPECT_NEAR(back[0], 48.f, 1e-4);
    for (std::size_t i = 1; i < back.size(); ++i) EXPECT_NEAR(back[i], 0.f, 1e-5) << i;
  }
}

struct Case {
  index_t x, y, z;
};
// Odd and even sizes, 1D/2D/3D, including primes (5, 7) that use FFTW's/cuFFT's generic paths.
const Case kCases[] = {{5, 7, 1}, {8, 6, 1}, {6, 5, 4}, {7, 5, 3}, {9, 1, 1}, {16, 1, 1}};

TYPED_TEST(FftNumerics, MatchesDirectDftInDouble) {
  Planner& pl = this->planner();
  std::uint32_t seed = 11;
  for (const Case& c : kCases) {
    for (Placement p : {Placement::OutOfPlace, Placement::InPlace}) {
      const Shape shape = Shape::volume(c.x, c.y, c.z, 2);
      // R2C
      const FftSpec r2c = FftSpec::r2c(shape, p);
      const auto x = test::random_floats(static_cast<std::size_t>(shape.total()), ++seed);
      const auto ref = direct_r2c(to_double(x), r2c);
      const auto got = run<float, Complex>(pl, pl.plan(r2c), real_input(x, r2c));
      EXPECT_LT(rel_l2(got, ref), kRefTol) << to_string(r2c);
      // C2R of an exactly Hermitian spectrum (the double R2C of random data)
      const FftSpec c2r = FftSpec::c2r(shape, p);
      const auto back = real_output(run<Complex, float>(pl, pl.plan(c2r), to_float(ref)), c2r);
      EXPECT_LT(rel_l2(back, direct_c2r(ref, c2r)), kRefTol) << to_string(c2r);
      // C2C both directions
      for (Direction d : {Direction::Forward, Direction::Inverse}) {
        const FftSpec c2c = FftSpec::c2c(shape, d, p);
        const auto z = random_complex(static_cast<std::size_t>(shape.total()), ++seed);
        const auto zref = direct_c2c(to_double(z), c2c);
        EXPECT_LT(rel_l2(run<Complex, Complex>(pl, pl.plan(c2c), z), zref), kRefTol) << to_string(c2c);
      }
    }
  }
}

TYPED_TEST(FftNumerics, RoundTripGivesNTimesInputAndScaleNormalises) {
  Planner& pl = this->planner();
  for (const Shape& shape : {Shape::image(30, 20, 2), Shape::volume(12, 10, 8), Shape::image(64, 1, 3)}) {
    const FftSpec fwd = FftSpec::r2c(shape), inv = FftSpec::c2r(shape);
    const FftPlan pf = pl.plan(fwd), pi = pl.plan(inv);
    const auto x = test::random_floats(static_cast<std::size_t>(shape.total()), 5);
    FftBuffer real = pl.allocate(fwd.input_bytes()), spec = pl.allocate(fwd.output_bytes());
    FftBuffer out = pl.allocate(inv.output_bytes());
    real.upload(x.data(), fwd.input_bytes());
    pf.execute(real.data(), spec.data());
    pi.execute(spec.data(), out.data());
    std::vector<float> y(x.size());
    out.download(y.data(), inv.output_bytes());
    // Unnormalised: forward then inverse multiplies by N = x*y*z (no hidden scaling).
    const double n = static_cast<double>(fwd.signal_elements());
    std::vector<double> nx(x.begin(), x.end());
    for (double& v : nx) v *= n;
    EXPECT_LT(rel_l2(y, nx), kRefTol) << to_string(fwd);
    // The explicit helper: scale by 1/N where the data lives, then it is x again.
    pl.scale(out.data(), y.size(), static_cast<float>(inverse_scale(inv)));
    out.download(y.data(), inv.output_bytes());
    EXPECT_LT(rel_l2(y, x), kRefTol) << to_string(fwd);
  }
}

TYPED_TEST(FftNumerics, BatchedEqualsLoopedSingleTransforms) {
  Planner& pl = this->planner();
  const index_t count = 4;
  const FftSpec batched = FftSpec::r2c(Shape::image(10, 9, count));
  const FftSpec single = FftSpec::r2c(Shape::image(10, 9, 1));
  const auto x = test::random_floats(static_cast<std::size_t>(batched.logical_shape().total()), 21);
  const auto all = run<float, Complex>(pl, pl.plan(batched), x);
  std::vector<Complex> looped;
  for (index_t i = 0; i < count; ++i) {
    std::vector<float> one(x.begin() + i * 90, x.begin() + (i + 1) * 90);
    const auto f = run<float, Complex>(pl, pl.plan(single), one);
    looped.insert(looped.end(), f.begin(), f.end());
  }
  EXPECT_LT(rel_l2(all, looped), kSameTol);

  const FftSpec cb = FftSpec::c2c(Shape::volume(6, 5, 4, 3), Direction::Inverse);
  const FftSpec cs = FftSpec::c2c(Shape::volume(6, 5, 4, 1), Direction::Inverse);
  const auto z = random_complex(360, 22);
  const auto zall = run<Complex, Complex>(pl, pl.plan(cb), z);
  std::vector<Complex> zloop;
  for (index_t i = 0; i < 3; ++i) {
    std::vector<Complex> one(z.begin() + i * 120, z.begin() + (i + 1) * 120);
    const auto f = run<Complex, Complex>(pl, pl.plan(cs), one);
    zloop.insert(zloop.end(), f.begin(), f.end());
  }
  EXPECT_LT(rel_l2(zall, zloop), kSameTol);
}

TYPED_TEST(FftNumerics, InPlaceEqualsOutOfPlace) {
  Planner& pl = this->planner();
  for (const Shape& shape : {Shape::image(12, 10, 2), Shape::volume(6, 5, 4), Shape::image(11, 7)}) {
    const FftSpec oop = FftSpec::r2c(shape), ip = FftSpec::r2c(shape, Placement::InPlace);
    const auto x = test::random_floats(static_cast<std::size_t>(shape.total()), 31);
    const auto a = run<float, Complex>(pl, pl.plan(oop), x);
    const auto b = run<float, Complex>(pl, pl.plan(ip), pad_rows(x, ip));
    EXPECT_LT(rel_l2(b, a), kSameTol) << to_string(ip);

    const auto ra = run<Complex, float>(pl, pl.plan(oop.inverse()), a);
    const auto rb = unpad_rows(run<Complex, float>(pl, pl.plan(ip.inverse()), a), ip);
    EXPECT_LT(rel_l2(rb, ra), kSameTol) << to_string(ip.inverse());

    const auto z = random_complex(static_cast<std::size_t>(shape.total()), 32);
    const auto za = run<Complex, Complex>(pl, pl.plan(FftSpec::c2c(shape, Direction::Forward)), z);
    const auto zb =
        run<Complex, Complex>(pl, pl.plan(FftSpec::c2c(shape, Direction::Forward, Placement::InPlace)), z);
    EXPECT_LT(rel_l2(zb, za), kSameTol);
  }
}

TYPED_TEST(FftNumerics, RealToComplexSpectrumIsHermitian) {
  // F(-k) = conj F(k) for real input. Within the half spectrum both k and -k are stored on the
  // planes kx = 0 and (for even x) kx = x/2, where the pairs are compared.
  Planner& pl = this->planner();
  for (const Shape& shape : {Shape::image(8, 6), Shape::volume(7, 5, 4), Shape::volume(10, 6, 5)}) {
    const FftSpec s = FftSpec::r2c(shape);
    const auto f = run<float, Complex>(pl, pl.plan(s), test::random_floats(static_cast<std::size_t>(shape.total()), 41));
    const index_t h = s.x / 2 + 1;
    auto at = [&](index_t kx, index_t ky, index_t kz) { return f[static_cast<std::size_t>((kz * s.y + ky) * h + kx)]; };
    float peak = 0;
    for (const Complex& v : f) peak = std::max(peak, std::abs(v));
    std::vector<index_t> planes{0};
    if (s.x % 2 == 0) planes.push_back(s.x / 2);
    for (index_t kx : planes)
      for (index_t kz = 0; kz < s.z; ++kz)
        for (index_t ky = 0; ky < s.y; ++ky)
          EXPECT_LT(std::abs(at(kx, ky, kz) - std::conj(at(kx, (s.y - ky) % s.y, (s.z - kz) % s.z))), 1e-5f * peak)
              << to_string(s) << " k=(" << kx << "," << ky << "," << kz << ")";
    EXPECT_LT(std::abs(at(0, 0, 0).imag()), 1e-6f * peak);
  }
}

} // namespace
} // namespace frost::fft
