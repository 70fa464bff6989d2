// Centred crop/pad in real space (centre n/2) and Fourier crop/pad of half-complex spectra
// (Nyquist split on pad, Nyquist sum on crop), checked with direct DFTs (naive_dft.hpp).
#include <cmath>
#include <complex>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/geometry/crop_pad.hpp"
#include "frost/geometry/fourier_shift.hpp"
#include "frost/test/support.hpp"
#include "naive_dft.hpp"

namespace frost::geom {
namespace {

using test::cd;

Image<double> random_image(Shape s, std::uint32_t seed) {
  Image<double> img(s);
  const auto f = test::random_floats(static_cast<std::size_t>(s.total()), seed);
  for (index_t i = 0; i < s.total(); ++i) img[i] = f[static_cast<std::size_t>(i)];
  return img;
}

// ------------------------------------------------------------------------------ real space

TEST(CropPad, PadOddToEvenPutsCentreOnCentre) {
  Image<float> in(Shape::image(3, 3));
  for (index_t i = 0; i < 9; ++i) in[i] = static_cast<float>(i + 1);
  const Image<float> out = crop_pad<float>(in.cview(), 6, 6, 1, -1.f);
  EXPECT_EQ(out.shape(), Shape::image(6, 6));
  EXPECT_EQ(out(3, 3), in(1, 1));  // centres 6/2 and 3/2 coincide
  EXPECT_EQ(out(2, 2), in(0, 0));
  EXPECT_EQ(out(4, 4), in(2, 2));
  EXPECT_EQ(out(0, 0), -1.f);
  EXPECT_EQ(out(5, 5), -1.f);
  EXPECT_EQ(out(1, 3), -1.f);
  const Image<float> back = crop_pad<float>(out.cview(), 3, 3);
  for (index_t i = 0; i < 9; ++i) EXPECT_EQ(back[i], in[i]);
}

TEST(CropPad, CropEvenToOddAndOddToEven) {
  const Image<double> in = random_image(Shape::image(6, 7), 5);
  const Image<double> out = crop_pad<double>(in.cview(), 3, 4);
  // Output index i reads input index i − m/2 + n/2.
  for (index_t y = 0; y < 4; ++y)
    for (index_t x = 0; x < 3; ++x) EXPECT_EQ(out(x, y), in(x - 1 + 3, y - 2 + 3));
}

TEST(CropPad, MixedCropAndPadPerAxisOnAStack) {
  const Shape s = Shape::volume(7, 6, 5, 2);
  const Image<double> in = random_image(s, 9);
  const Image<double> out = crop_pad<double>(in.cview(), 10, 4, 8, 0.5);
  ASSERT_EQ(out.shape(), Shape::volume(10, 4, 8, 2));
  for (index_t n = 0; n < 2; ++n)
    for (index_t z = 0; z < 8; ++z)
      for (index_t y = 0; y < 4; ++y)
        for (index_t x = 0; x < 10; ++x) {
          const index_t ix = x - 5 + 3, iy = y - 2 + 3, iz = z - 4 + 2;
          const bool inside = ix >= 0 && ix < 7 && iz >= 0 && iz < 5;
          EXPECT_EQ(out(x, y, z, n), inside ? in(ix, iy, iz, n) : 0.5);
        }
}

TEST(CropPad, CropUndoesPad) {
  for (const Shape s : {Shape::volume(5, 6, 7), Shape::volume(8, 9, 4), Shape::image(1, 2)}) {
    const Image<double> in = random_image(s, 3);
    const Image<double> big = crop_pad<double>(in.cview(), s.x + 5, s.y + 2, s.z == 1 ? 1 : s.z + 3);
    const Image<double> back = crop_pad<double>(big.cview(), s.x, s.y, s.z);
    for (index_t i = 0; i < s.total(); ++i) ASSERT_EQ(back[i], in[i]) << to_string(s);
  }
}

// ------------------------------------------------------------------------------ Fourier space

std::vector<cd> fcrop_pad(const std::vector<cd>& in, Shape a, Shape b) {
  const Image<cd> out = fourier_crop_pad<double>(View<const cd>{in.data(), a.half_spectrum()}, a, b);
  return {out.begin(), out.end()};
}

std::vector<cd> spectrum_of(const Image<double>& img) {
  return test::dft_r2c(std::vector<double>(img.begin(), img.end()), img.shape());
}

/// Continuous trigonometric interpolant of a real 2-D image from its full spectrum, with the
/// even-size Nyquist term split symmetrically (cos π u).
double trig_interpolant(const std::vector<cd>& full, Shape s, double u, double v) {
  auto h = [](index_t j, index_t n, double pos) {
    if (n % 2 == 0 && j == n / 2) return cd(std::cos(hdm::kPi * pos), 0.0);
    const double ph = test::kTwoPi * static_cast<double>(fft_frequency(j, n)) * pos / static_cast<double>(n);
    return cd(std::cos(ph), std::sin(ph));
  };
  cd acc = 0;
  for (index_t jy = 0; jy < s.y; ++jy)
    for (index_t jx = 0; jx < s.x; ++jx) acc += full[static_cast<std::size_t>(s.index(jx, jy))] * h(jx, s.x, u) * h(jy, s.y, v);
  return acc.real() / static_cast<double>(s.pixels_per_item());
}

TEST(FourierCropPad, PadIsTrigonometricInterpolation) {
  // The padded spectrum's image is the trigonometric interpolant of the original sampled on the
  // finer grid (scaled by N_out/N_in with unnormalised transforms); it is real, and with a
  // ratio of 2 it passes through the original samples.
  const std::vector<std::pair<Shape, Shape>> cases{{Shape::image(8, 9), Shape::image(12, 13)},
                                                   {Shape::image(8, 8), Shape::image(13, 16)},
                                                   {Shape::image(9, 7), Shape::image(14, 12)},
                                                   {Shape::image(8, 6), Shape::image(16, 12)}};
  for (const auto& [a, b] : cases) {
    const Image<double> img = random_image(a, 21);
    const auto spec = spectrum_of(img);
    const auto full = test::hermitian_full(spec, a);
    const auto g = test::idft_c2c_from_half(fcrop_pad(spec, a, b), b);
    EXPECT_LE(test::max_abs_imag(g), 1e-12) << to_string(a) << " -> " << to_string(b);
    const double scale = static_cast<double>(b.pixels_per_item()) / static_cast<double>(a.pixels_per_item());
    for (index_t y = 0; y < b.y; ++y)
      for (index_t x = 0; x < b.x; ++x) {
        const double u = static_cast<double>(x * a.x) / static_cast<double>(b.x);
        const double v = static_cast<double>(y * a.y) / static_cast<double>(b.y);
        ASSERT_NEAR(g[static_cast<std::size_t>(b.index(x, y))].real() * scale, trig_interpolant(full, a, u, v), 1e-12)
            << to_string(a) << " -> " << to_string(b) << " at " << x << "," << y;
      }
    if (b.x == 2 * a.x && b.y == 2 * a.y) {
      for (index_t y = 0; y < a.y; ++y)
        for (index_t x = 0; x < a.x; ++x) {
          EXPECT_NEAR(g[static_cast<std::size_t>(b.index(2 * x, 2 * y))].real() * scale, img(x, y), 1e-12);
        }
    }
  }
}

TEST(FourierCropPad, CropSumsBothNyquistHalvesAndStaysReal) {
  // Cropped image = samples at x·n/m of the image low-passed to |k| <= m/2 per axis, where an
  // even m keeps both +m/2 and −m/2 at full weight (they alias onto the one Nyquist index).
  const std::vector<std::pair<Shape, Shape>> cases{{Shape::image(16, 12), Shape::image(8, 7)},
                                                   {Shape::image(15, 12), Shape::image(10, 6)},
                                                   {Shape::image(13, 11), Shape::image(8, 8)}};
  for (const auto& [a, b] : cases) {
    const Image<double> img = random_image(a, 4);
    const auto spec = spectrum_of(img);
    const auto full = test::hermitian_full(spec, a);
    const auto g = test::idft_c2c_from_half(fcrop_pad(spec, a, b), b);
    EXPECT_LE(test::max_abs_imag(g), 1e-12) << to_string(a) << " -> " << to_string(b);
    auto wrap = [](index_t k, index_t n) { return ((k % n) + n) % n; };
    for (index_t y = 0; y < b.y; ++y)
      for (index_t x = 0; x < b.x; ++x) {
        cd acc = 0;
        for (index_t ky = -(b.y / 2); ky <= b.y / 2; ++ky)
          for (index_t kx = -(b.x / 2); kx <= b.x / 2; ++kx) {
            const double ph = test::kTwoPi * (static_cast<double>(kx * x) / static_cast<double>(b.x) +
                                              static_cast<double>(ky * y) / static_cast<double>(b.y));
            acc += full[static_cast<std::size_t>(a.index(wrap(kx, a.x), wrap(ky, a.y)))] * cd(std::cos(ph), std::sin(ph));
          }
        ASSERT_NEAR(g[static_cast<std::size_t>(b.index(x, y))].real(), acc.real() / static_cast<double>(b.pixels_per_item()),
                    1e-12)
            << to_string(a) << " -> " << to_string(b) << " at " << x << "," << y;
      }
  }
}

TEST(FourierCropPad, CropUndoesPadIn2DAnd3D) {
  const std::vector<std::pair<Shape, Shape>> cases{
      {Shape::image(8, 8), Shape::image(12, 12)},     {Shape::image(8, 6), Shape::image(13, 9)},
      {Shape::image(9, 7), Shape::image(12, 10)},     {Shape::image(9, 9), Shape::image(10, 11)},
      {Shape::volume(6, 5, 4), Shape::volume(9, 8, 8)}, {Shape::volume(5, 6, 7), Shape::volume(8, 8, 8)}};
  for (const auto& [a, b] : cases) {
    const auto spec = spectrum_of(random_image(a, 8));
    const auto padded = fcrop_pad(spec, a, b);
    EXPECT_LE(test::max_abs_imag(test::idft_c2c_from_half(padded, b)), 1e-12) << to_string(b);
    EXPECT_LE(test::max_abs_diff(fcrop_pad(padded, b, a), spec), 1e-12) << to_string(a) << " <-> " << to_string(b);
  }
}

TEST(FourierCropPad, CropOfA3DVolumeStaysReal) {
  const Shape a = Shape::volume(9, 8, 10), b = Shape::volume(6, 5, 4);
  const auto g = test::idft_c2c_from_half(fcrop_pad(spectrum_of(random_image(a, 2)), a, b), b);
  EXPECT_LE(test::max_abs_imag(g), 1e-12);
}

TEST(FourierCropPad, SameSizeCopiesAndStacksAreItemWise) {
  const Shape a = Shape::image(6, 5);
  const auto s1 = spectrum_of(random_image(a, 1)), s2 = spectrum_of(random_image(a, 2));
  std::vector<cd> stack(s1);
  stack.insert(stack.end(), s2.begin(), s2.end());
  Shape ha = a.half_spectrum();
  ha.n = 2;
  const Shape b = Shape::image(10, 8);
  const Image<cd> out = fourier_crop_pad<double>(View<const cd>{stack.data(), ha}, a, b);
  ASSERT_EQ(out.shape().n, 2);
  const auto e1 = fcrop_pad(s1, a, b), e2 = fcrop_pad(s2, a, b);
  for (std::size_t i = 0; i < e1.size(); ++i) {
    EXPECT_EQ(out[static_cast<index_t>(i)], e1[i]);
    EXPECT_EQ(out[static_cast<index_t>(i + e1.size())], e2[i]);
  }
  EXPECT_EQ(fcrop_pad(s1, a, a), s1);
}

TEST(FourierCropPad, RejectsMismatchedShapes) {
  std::vector<cd> spec(6 * 5);
  EXPECT_THROW(fourier_crop_pad<double>(View<const cd>{spec.data(), Shape::image(6, 5)}, Shape::image(6, 5),
                                        Shape::image(8, 8)),
               Error);
}

} // namespace
} // namespace frost::geom
