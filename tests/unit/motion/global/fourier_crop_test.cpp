// Fourier crop against a direct DFT ("Fourier crop mapping and axis zeroing" in
// docs/movie_align.md#unit-checks): a 12x10 frame cropped to a 6x4 correlation spectrum.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>

#include "frost/motion/fourier_crop.hpp"
#include "frost/motion/frame_spectra.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

using cd = std::complex<double>;
constexpr double kPi = 3.14159265358979323846;

// F(kx, ky) = sum f(x0 + x, y0 + y) exp(-2 pi i (kx x / mx + ky y / my)) over an mx x my window.
cd direct_dft(const Image<float>& f, index_t x0, index_t y0, index_t mx, index_t my, index_t kx, index_t ky) {
  cd s = 0;
  for (index_t y = 0; y < my; ++y)
    for (index_t x = 0; x < mx; ++x) {
      const double ph = -2.0 * kPi * (static_cast<double>(kx * x) / mx + static_cast<double>(ky * y) / my);
      s += static_cast<double>(f(x0 + x, y0 + y)) * cd(std::cos(ph), std::sin(ph));
    }
  return s;
}

// The expected crop: frequency (kx, signed ky) of the window, times H and 1/(mx·my), axes zero.
cd expected(const Image<float>& f, index_t x0, index_t y0, index_t mx, index_t my, const Image<float>& h,
            index_t kx, index_t row, index_t cy) {
  if (kx == 0 || row == 0) return 0;
  const index_t ky = row <= cy / 2 ? row : row - cy; // signed frequency of the cropped row
  return direct_dft(f, x0, y0, mx, my, kx, ky) * static_cast<double>(h(kx, row)) / static_cast<double>(mx * my);
}

TEST(FourierCrop, RowMappingOf12x10To6x4) {
  // Rows 0..C_y/2 keep their index; the rest come from M_y - C_y + row.
  EXPECT_EQ(crop_source_row(0, 4, 10), 0);
  EXPECT_EQ(crop_source_row(1, 4, 10), 1);
  EXPECT_EQ(crop_source_row(2, 4, 10), 2);
  EXPECT_EQ(crop_source_row(3, 4, 10), 9);
}

TEST(FourierCrop, MatchesDirectDftWithFilterScaleAndZeroAxes) {
  const Image<float> f = test::random_image<float>(Shape::image(12, 10), 11);
  const Image<float> h = test::random_image<float>(Shape::image(4, 4), 12); // any filter values

  // The crop alone, fed with a direct DFT half spectrum.
  Image<fft::Complex> full(Shape::image(7, 10));
  for (index_t y = 0; y < 10; ++y)
    for (index_t x = 0; x < 7; ++x) full(x, y) = fft::Complex(direct_dft(f, 0, 0, 12, 10, x, y));
  Image<fft::Complex> crop(Shape::image(4, 4));
  crop_half_spectrum(full.cview(), crop.view(), h.cview(), 1.0f / 120.0f);

  // The whole step: frost::fft forward transform, crop, filter, normalisation.
  WorkingSizes s;
  s.frame = s.transform = {12, 10};
  s.correlation = {6, 4};
  const Image<fft::Complex> spectra = filtered_spectra({f.cview()}, s, h.cview());
  ASSERT_EQ(spectra.shape(), Shape::image(4, 4, 1));

  double worst_crop = 0, worst_pipeline = 0, largest = 0;
  for (index_t y = 0; y < 4; ++y)
    for (index_t x = 0; x < 4; ++x) {
      const cd e = expected(f, 0, 0, 12, 10, h, x, y, 4);
      worst_crop = std::max(worst_crop, std::abs(cd(crop(x, y)) - e));
      worst_pipeline = std::max(worst_pipeline, std::abs(cd(spectra(x, y)) - e));
      largest = std::max(largest, std::abs(e));
      if (x == 0 || y == 0) {
        EXPECT_EQ(crop(x, y), fft::Complex(0.f, 0.f)) << x << "," << y;
        EXPECT_EQ(spectra(x, y), fft::Complex(0.f, 0.f)) << x << "," << y;
      }
    }
  std::printf("12x10 -> 6x4: max |crop - DFT| %.2e, max |FFT+crop - DFT| %.2e (largest value %.3f)\n",
              worst_crop, worst_pipeline, largest);
  EXPECT_GT(largest, 0.05); // the example has signal off the axes
  EXPECT_LT(worst_crop, 1e-6);
  EXPECT_LT(worst_pipeline, 1e-6);
}

TEST(FourierCrop, TransformWindowIsCentred) {
  // A 14x12 frame transformed on a 12x10 window starts at (1, 1).
  const Image<float> f = test::random_image<float>(Shape::image(14, 12), 21);
  WorkingSizes s;
  s.frame = {14, 12};
  s.transform = {12, 10};
  s.correlation = {6, 4};
  const Image<fft::Complex> spectra = filtered_spectra({f.cview()}, s, View<const float>{});
  Image<float> ones(Shape::image(4, 4));
  for (float& v : ones) v = 1.f;
  double worst = 0;
  for (index_t y = 0; y < 4; ++y)
    for (index_t x = 0; x < 4; ++x)
      worst = std::max(worst, std::abs(cd(spectra(x, y)) - expected(f, 1, 1, 12, 10, ones, x, y, 4)));
  std::printf("centred 12x10 window of 14x12: max error %.2e\n", worst);
  EXPECT_LT(worst, 1e-6);
}

} // namespace
} // namespace frost::motion
