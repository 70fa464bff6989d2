// Gain and dark references (docs/movie_align.md#gain-dark-defects-and-hot-pixels,
// docs/formats.md#eer-gain-references): the corrected frame arithmetic, --gain-invert, NaN/Inf
// rejection, the EER gain rules and the size-mismatch message.
#include <cmath>
#include <limits>

#if FROST_HAVE_TIFF
#include <tiffio.h>
#endif

#include "error_of.hpp"
#include "frost/io/image_io.hpp"
#include "frost/motion/frame_correction.hpp"
#include "frost/motion/reference_images.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

Image<float> ramp(index_t w, index_t h, float base) {
  Image<float> img(Shape::image(w, h));
  for (index_t y = 0; y < h; ++y)
    for (index_t x = 0; x < w; ++x) img(x, y) = base + float(x) + 100.0f * float(y);
  return img;
}

TEST(FrameCorrection, DarkSubtractedThenGainMultiplied) {
  const auto raw = test::random_floats(64, 1, 0.f, 20.f);
  const auto dark = test::random_floats(64, 2, 0.f, 2.f);
  const auto gain = test::random_floats(64, 3, 0.5f, 1.5f);
  std::vector<float> f = raw;
  correct_frame(f.data(), 64, dark.data(), gain.data());
  double worst = 0;
  for (std::size_t i = 0; i < 64; ++i)
    worst = std::max(worst, std::abs(double(f[i]) - (double(raw[i]) - dark[i]) * gain[i]));
  std::printf("max |F - (R - D) G| = %.3g\n", worst);
  EXPECT_LT(worst, 1e-5);
  // Order matters: (R - D) G differs from R G - D for these values.
  EXPECT_GT(std::abs(f[0] - (raw[0] * gain[0] - dark[0])), 1e-4);
  std::vector<float> g_only = raw, d_only = raw, none = raw;
  correct_frame(g_only.data(), 64, nullptr, gain.data());
  correct_frame(d_only.data(), 64, dark.data(), nullptr);
  correct_frame(none.data(), 64, nullptr, nullptr);
  EXPECT_FLOAT_EQ(g_only[5], raw[5] * gain[5]);
  EXPECT_FLOAT_EQ(d_only[5], raw[5] - dark[5]);
  EXPECT_EQ(none, raw);
}

TEST(GainReference, InvertKeepsZeros) {
  Image<float> g(Shape::image(3, 1));
  g[0] = 2;
  g[1] = 0;
  g[2] = 0.5f;
  invert_gain(g);
  EXPECT_EQ(g[0], 0.5f);
  EXPECT_EQ(g[1], 0.0f);
  EXPECT_EQ(g[2], 2.0f);
}

TEST(GainReference, RotatedMrcGainMatchesFramesAndNanIsRejected) {
  test::TempDir dir;
  const std::string path = dir.file("gain.mrc");
  const Image<float> g = ramp(4, 6, 1.0f); // 4 wide, 6 tall; frames are 6 x 4
  io::write_image(path, g.cview());
  GainOptions o;
  o.transform = {1, 0};
  o.invert = true;
  const Image<float> loaded = load_gain(path, o, 6, 4);
  const Image<float> rotated = orient(g.cview(), {1, 0});
  ASSERT_EQ(loaded.shape(), rotated.shape());
  for (index_t i = 0; i < loaded.size(); ++i) EXPECT_FLOAT_EQ(loaded[i], 1.0f / rotated[i]);

  Image<float> bad(g.shape());
  std::copy(g.begin(), g.end(), bad.begin());
  bad(2, 3) = std::numeric_limits<float>::quiet_NaN();
  const std::string nan_path = dir.file("nan.mrc");
  io::write_image(nan_path, bad.cview());
  ExitCode code = ExitCode::Ok;
  const std::string msg = error_of([&] { load_gain(nan_path, o, 6, 4); }, &code);
  std::printf("%s\n", msg.c_str());
  EXPECT_EQ(code, ExitCode::Input);
  EXPECT_NE(msg.find("NaN at pixel (2, 3)"), std::string::npos);
  EXPECT_NE(msg.find(nan_path), std::string::npos);
}

TEST(GainReference, SizeMismatchNamesBothSizesAndSuggestsARotation) {
  test::TempDir dir;
  const std::string path = dir.file("gain.mrc");
  io::write_image(path, ramp(4, 6, 1.0f).cview());
  ExitCode code = ExitCode::Ok;
  std::string msg = error_of([&] { load_gain(path, GainOptions{}, 6, 4); }, &code);
  std::printf("%s\n", msg.c_str());
  EXPECT_EQ(code, ExitCode::Input);
  EXPECT_NE(msg.find("4x6"), std::string::npos);
  EXPECT_NE(msg.find("6x4"), std::string::npos);
  EXPECT_NE(msg.find("try --gain-rot 1 (or 3"), std::string::npos);
  EXPECT_NE(msg.find(path), std::string::npos);
  // Already rotated by 1: the other parity is suggested.
  msg = error_of([] { check_reference_size("gain reference", "g.mrc", 4, 6, 6, 4, {1, 2}); });
  EXPECT_NE(msg.find("after --gain-rot 1 --gain-flip 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("try --gain-rot 0 (or 2"), std::string::npos) << msg;
  msg = error_of([] { check_reference_size("dark reference", "d.mrc", 5, 7, 6, 4, {}); });
  EXPECT_NE(msg.find("no rotation"), std::string::npos) << msg;
  msg = error_of([] { check_reference_size("gain reference", "g.mrc", 3, 2, 6, 4, {}); });
  EXPECT_NE(msg.find("half the frame size"), std::string::npos) << msg;
  EXPECT_EQ(error_of([] { check_reference_size("gain reference", "g.mrc", 6, 4, 6, 4, {}); }), "");
}

TEST(EerGain, CountReferenceBecomesMeanOverValueAndIsReplicatedForUpsampling) {
  test::TempDir dir;
  const std::string path = dir.file("counts.mrc");
  Image<float> counts(Shape::image(4, 4));
  for (index_t i = 0; i < 16; ++i) counts[i] = float(1 + i % 4); // 1 2 3 4 per row
  counts(1, 2) = 0;                                              // a dead pixel
  io::write_image(path, counts.cview());
  GainOptions o;
  o.eer = true;
  const Image<float> g = load_gain(path, o, 8, 8); // frames rendered at u = 2
  double sum = 0;
  for (index_t i = 0; i < 16; ++i) sum += counts[i];
  const double mean = sum / 15.0; // over the non-zero pixels
  std::printf("mean of the count reference %.5f, gain(0,0) %.5f\n", mean, g(0, 0));
  for (index_t y = 0; y < 8; ++y)
    for (index_t x = 0; x < 8; ++x) {
      const float c = counts(x / 2, y / 2);
      EXPECT_FLOAT_EQ(g(x, y), c == 0 ? 0.0f : float(mean / c)) << x << "," << y;
    }
  // An 8K count reference used at 4K is summed over 2x2 blocks before the conversion.
  const Image<float> coarse = resize_eer_reference(ramp(4, 4, 1.0f).cview(), 2, 2, true, "g");
  EXPECT_FLOAT_EQ(coarse(1, 1), (203 + 204 + 303 + 304) * 1.0f);
  const Image<float> averaged = resize_eer_reference(ramp(4, 4, 1.0f).cview(), 2, 2, false, "g");
  EXPECT_FLOAT_EQ(averaged(1, 1), (203 + 204 + 303 + 304) / 4.0f);
  EXPECT_THROW(resize_eer_reference(ramp(3, 3, 1.0f).cview(), 8, 8, true, "g"), Error);
}

TEST(EerGain, ThermoGainTiffIsUsedAsIsWithoutRowFlip) {
#if FROST_HAVE_TIFF
  test::TempDir dir;
  const std::string path = dir.file("ref.gain");
  const Image<float> g = ramp(4, 4, 1.0f); // TIFF row 0 = 1 2 3 4
  TIFF* tif = TIFFOpen(path.c_str(), "w");
  ASSERT_NE(tif, nullptr);
  TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, 4u);
  TIFFSetField(tif, TIFFTAG_IMAGELENGTH, 4u);
  TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 32);
  TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_IEEEFP);
  TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
  TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
  TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, 4u);
  for (std::uint32_t y = 0; y < 4; ++y) TIFFWriteScanline(tif, const_cast<float*>(g.data() + 4 * y), y, 0);
  TIFFClose(tif);
  GainOptions o;
  o.eer = true;
  const Image<float> eer_gain = load_gain(path, o, 4, 4);
  for (index_t i = 0; i < 16; ++i) EXPECT_EQ(eer_gain[i], g[i]); // multiplier as stored, rows unflipped
  // The same file as the gain of a TIFF movie follows the row flip (docs/formats.md#tiff-movies).
  o.eer = false;
  const Image<float> tiff_gain = load_gain(path, o, 4, 4);
  EXPECT_EQ(tiff_gain(2, 0), g(2, 3));
  std::printf(".gain for EER: row 0 starts %g; for a TIFF movie: %g\n", eer_gain(0, 0), tiff_gain(0, 0));
#else
  GTEST_SKIP() << "frost was built without libtiff: .gain files cannot be written or read";
#endif
}

TEST(DarkReference, OrientedAndChecked) {
  test::TempDir dir;
  const std::string path = dir.file("dark.mrc");
  const Image<float> d = ramp(4, 6, 0.5f);
  io::write_image(path, d.cview());
  const Image<float> loaded = load_dark(path, {3, 1}, true, 6, 4);
  const Image<float> want = orient(d.cview(), {3, 1});
  for (index_t i = 0; i < want.size(); ++i) EXPECT_EQ(loaded[i], want[i]);
  EXPECT_THROW(load_dark(path, {0, 0}, true, 6, 4), Error);
}

} // namespace
} // namespace frost::motion
