// Fourier-space shifts of half-complex spectra: sign pinned by integer rolls of real images
// (direct DFT in naive_dft.hpp), sub-pixel exactness on band-limited images, composition.
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/geometry/fourier_shift.hpp"
#include "frost/test/support.hpp"
#include "naive_dft.hpp"

namespace frost::geom {
namespace {

using test::cd;

std::vector<double> random_real(Shape s, std::uint32_t seed) {
  const auto f = test::random_floats(static_cast<std::size_t>(s.pixels_per_item()), seed);
  return {f.begin(), f.end()};
}

/// out(r) = in(r − s) with periodic wrap: the content moves by +s.
std::vector<double> roll(const std::vector<double>& in, Shape s, index_t dx, index_t dy, index_t dz) {
  std::vector<double> out(in.size());
  auto wrap = [](index_t i, index_t n) { return ((i % n) + n) % n; };
  for (index_t z = 0; z < s.z; ++z)
    for (index_t y = 0; y < s.y; ++y)
      for (index_t x = 0; x < s.x; ++x)
        out[static_cast<std::size_t>(s.index(x, y, z))] =
            in[static_cast<std::size_t>(s.index(wrap(x - dx, s.x), wrap(y - dy, s.y), wrap(z - dz, s.z)))];
  return out;
}

std::vector<cd> shifted(std::vector<cd> spec, Shape s, double sx, double sy, double sz = 0) {
  Shape h = s.half_spectrum();
  shift_spectrum<double>(View<cd>{spec.data(), h}, s, sx, sy, sz);
  return spec;
}

TEST(FourierShift, FrequencyIndexRule) {
  EXPECT_EQ(fft_frequency(0, 8), 0);
  EXPECT_EQ(fft_frequency(4, 8), 4);  // even Nyquist counts as +n/2 (RELION FFTW_KSPACE)
  EXPECT_EQ(fft_frequency(5, 8), -3);
  EXPECT_EQ(fft_frequency(4, 9), 4);
  EXPECT_EQ(fft_frequency(5, 9), -4);
  // Per-element phase for a kernel: content +1 px along x at frequency 1/8 -> −2π/8.
  EXPECT_NEAR(shift_phase<double>(1, 0, 0, 8, 8, 1, 1.0, 0.0, 0.0), -2.0 * hdm::kPi / 8.0, 1e-15);
}

TEST(FourierShift, IntegerShiftEqualsRollOfTheImage2D) {
  for (const Shape s : {Shape::image(12, 10), Shape::image(11, 9), Shape::image(8, 7)}) {
    const auto img = random_real(s, 7);
    const auto spec = test::dft_r2c(img, s);
    for (const auto& d : std::vector<std::array<index_t, 2>>{{3, -2}, {-1, 4}, {0, 1}}) {
      const auto expected = test::dft_r2c(roll(img, s, d[0], d[1], 0), s);
      EXPECT_LE(test::max_abs_diff(shifted(spec, s, static_cast<double>(d[0]), static_cast<double>(d[1])), expected),
                1e-10)
          << to_string(s) << " shift " << d[0] << "," << d[1];
    }
  }
}

TEST(FourierShift, IntegerShiftEqualsRollOfTheVolume3D) {
  for (const Shape s : {Shape::volume(6, 5, 4), Shape::volume(5, 6, 7)}) {
    const auto vol = random_real(s, 11);
    const auto expected = test::dft_r2c(roll(vol, s, 1, 2, -1), s);
    EXPECT_LE(test::max_abs_diff(shifted(test::dft_r2c(vol, s), s, 1, 2, -1), expected), 1e-10) << to_string(s);
  }
}

TEST(FourierShift, SubPixelShiftOfABandLimitedImageIsExact) {
  // Sum of cosines below Nyquist: the shifted image is known in closed form.
  const Shape s = Shape::image(16, 12);
  const double sx = 0.3, sy = -1.7;
  struct Wave {
    double a, kx, ky, phi;
  };
  const std::vector<Wave> waves{{1.0, 1, 0, 0.2}, {0.5, 3, -2, 1.0}, {0.25, 7, 5, -0.7}, {0.8, 0, 4, 2.0}};
  auto render = [&](double dx, double dy) {
    std::vector<double> f(static_cast<std::size_t>(s.pixels_per_item()));
    for (index_t y = 0; y < s.y; ++y)
      for (index_t x = 0; x < s.x; ++x) {
        double v = 0;
        for (const Wave& w : waves)
          v += w.a * std::cos(test::kTwoPi * (w.kx * (x - dx) / 16.0 + w.ky * (y - dy) / 12.0) + w.phi);
        f[static_cast<std::size_t>(s.index(x, y))] = v;
      }
    return f;
  };
  const auto expected = test::dft_r2c(render(sx, sy), s);
  EXPECT_LE(test::max_abs_diff(shifted(test::dft_r2c(render(0, 0), s), s, sx, sy), expected), 1e-10);
}

TEST(FourierShift, ShiftsCompose) {
  const Shape s = Shape::volume(6, 7, 5);
  const auto spec = test::dft_r2c(random_real(s, 3), s);
  const auto ab = shifted(shifted(spec, s, 0.4, -1.3, 2.2), s, 1.1, 0.25, -0.6);
  EXPECT_LE(test::max_abs_diff(ab, shifted(spec, s, 1.5, -1.05, 1.6)), 1e-12);
  EXPECT_LE(test::max_abs_diff(shifted(shifted(spec, s, 0.37, -2.9, 0.5), s, -0.37, 2.9, -0.5), spec), 1e-12);
}

TEST(FourierShift, FloatStackShiftsEveryItem) {
  const Shape s = Shape::image(10, 9);
  const Shape h = s.half_spectrum();
  const auto a = test::dft_r2c(random_real(s, 1), s), b = test::dft_r2c(random_real(s, 2), s);
  std::vector<std::complex<float>> stack;
  for (const auto* v : {&a, &b})
    for (const cd& c : *v) stack.emplace_back(static_cast<float>(c.real()), static_cast<float>(c.imag()));
  Shape hs = h;
  hs.n = 2;
  shift_spectrum<float>(View<std::complex<float>>{stack.data(), hs}, s, 2.0, -3.0);
  const auto ea = shifted(a, s, 2, -3), eb = shifted(b, s, 2, -3);
  double err = 0;
  for (std::size_t i = 0; i < ea.size(); ++i) {
    err = std::max(err, std::abs(cd(stack[i].real(), stack[i].imag()) - ea[i]));
    err = std::max(err, std::abs(cd(stack[i + ea.size()].real(), stack[i + ea.size()].imag()) - eb[i]));
  }
  EXPECT_LE(err, 1e-4);
}

TEST(FourierShift, RejectsAWrongSpectrumShape) {
  std::vector<cd> spec(10 * 8);
  EXPECT_THROW(shift_spectrum<double>(View<cd>{spec.data(), Shape::image(10, 8)}, Shape::image(10, 8), 1, 1), Error);
}

} // namespace
} // namespace frost::geom
