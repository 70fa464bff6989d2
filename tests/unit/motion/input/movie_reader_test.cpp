// MovieReader (docs/movie_align.md#loading-frames): the same frames as io::read_stack for real MRC and TIFF
// files, --frameRange, gain/dark in the documented orientation, binning, defects and hot pixels
// (deterministic for any thread count), and EER fractions with an EER gain.
#include <fstream>

#include "eer_test_files.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/tiff_reader.hpp"
#include "frost/motion/defects.hpp"
#include "frost/motion/fourier_binning.hpp"
#include "frost/motion/movie_reader.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

index_t count_differences(const Image<float>& a, const Image<float>& b) {
  EXPECT_EQ(a.shape(), b.shape());
  if (a.shape() != b.shape()) return a.size();
  index_t n = 0;
  for (index_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
  return n;
}

void expect_same_as_read_stack(const std::string& path, const MovieReadOptions& mo, const io::ReadOptions& ro) {
  MovieReader reader(path, mo);
  const Image<float> got = reader.read_all();
  const io::LoadedImage want = io::read_stack(path, ro);
  std::printf("%s: %lld frames of %lldx%lld, %lld values differ\n", path.c_str(), (long long)reader.frame_count(),
              (long long)reader.raw_width(), (long long)reader.raw_height(),
              (long long)count_differences(got, want.image));
  EXPECT_EQ(count_differences(got, want.image), 0);
}

TEST(MovieReaderReal, MrcStackEqualsReadStack) {
  FROST_REQUIRE_DATA(path, "xmipp/smallStack.mrcs");
  expect_same_as_read_stack(path, {}, {});
}

TEST(MovieReaderReal, MrcWithSlicesAsFramesEqualsReadStack) {
  FROST_REQUIRE_DATA(path, "cryodrgn/empiar_10076_7.mrc");
  expect_same_as_read_stack(path, {}, {});
}

TEST(MovieReaderReal, TiffEqualsReadStackWithAndWithoutRowFlip) {
  FROST_REQUIRE_DATA(path, "xmipp/KLH.tif");
  if (!io::tiff_supported()) GTEST_SKIP() << "frost was built without libtiff";
  expect_same_as_read_stack(path, {}, {});
  MovieReadOptions mo;
  mo.tiff_flip_y = false;
  io::ReadOptions ro;
  ro.tiff_flip_y = false;
  expect_same_as_read_stack(path, mo, ro);
  const Image<float> flipped = MovieReader(path, {}).read_all();
  const Image<float> plain = MovieReader(path, mo).read_all();
  EXPECT_EQ(flipped(100, 0), plain(100, 843));
  EXPECT_GT(count_differences(flipped, plain), 0);
}

TEST(MovieReaderReal, FrameRangeSelectsFramesAndReadFrameMatches) {
  FROST_REQUIRE_DATA(path, "cryodrgn/empiar_10076_7.mrc");
  MovieReadOptions mo;
  mo.first_frame = 2;
  mo.last_frame = 4;
  MovieReader reader(path, mo);
  EXPECT_EQ(reader.first_frame(), 2);
  ASSERT_EQ(reader.frame_count(), 3);
  const Image<float> all = reader.read_all();
  const io::LoadedImage want = io::read_stack(path);
  const index_t n = 320 * 320;
  for (index_t t = 0; t < 3; ++t) {
    Image<float> one(reader.frame_shape());
    reader.read_frame(t, one.data());
    for (index_t i = 0; i < n; i += 97) {
      ASSERT_EQ(all[t * n + i], want.image[(t + 2) * n + i]);
      ASSERT_EQ(one[i], all[t * n + i]);
    }
  }
  mo.last_frame = 7;
  try {
    MovieReader bad(path, mo);
    FAIL() << "frame 7 of 7 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    std::printf("%s\n", e.what());
  }
}

/// A small integer movie with a gain stored rotated (rot 1) and a dark, all as MRC.
struct SyntheticMovie {
  test::TempDir dir;
  std::string movie, gain, dark;
  Image<float> frames, gain_stored, dark_stored;
  static constexpr index_t kW = 32, kH = 24, kN = 5;

  SyntheticMovie() : movie(dir.file("movie.mrcs")), gain(dir.file("gain.mrc")), dark(dir.file("dark.mrc")) {
    frames = Image<float>(Shape{kW, kH, 1, kN});
    const auto v = test::random_floats(std::size_t(frames.size()), 21, 0.f, 6.f);
    for (index_t i = 0; i < frames.size(); ++i) frames[i] = std::floor(v[std::size_t(i)]);
    io::write_image(movie, frames.cview());
    gain_stored = Image<float>(Shape::image(kH, kW)); // 24 x 32: needs --gain-rot 1 or 3
    const auto g = test::random_floats(std::size_t(gain_stored.size()), 22, 0.5f, 1.5f);
    for (index_t i = 0; i < gain_stored.size(); ++i) gain_stored[i] = g[std::size_t(i)];
    io::write_image(gain, gain_stored.cview());
    dark_stored = Image<float>(Shape::image(kH, kW));
    const auto d = test::random_floats(std::size_t(dark_stored.size()), 23, 0.f, 0.5f);
    for (index_t i = 0; i < dark_stored.size(); ++i) dark_stored[i] = d[std::size_t(i)];
    io::write_image(dark, dark_stored.cview());
  }
  /// (R - D) G with references oriented by `t`, computed here pixel by pixel.
  Image<float> corrected(const GainTransform& t) const {
    const Image<float> g = orient(gain_stored.cview(), t), d = orient(dark_stored.cview(), t);
    Image<float> out(frames.shape());
    for (index_t f = 0; f < kN; ++f)
      for (index_t i = 0; i < kW * kH; ++i) out[f * kW * kH + i] = (frames[f * kW * kH + i] - d[i]) * g[i];
    return out;
  }
};

TEST(MovieReaderSynthetic, GainAndDarkInTheirOrientation) {
  SyntheticMovie s;
  MovieReadOptions mo;
  mo.gain = s.gain;
  mo.dark = s.dark;
  mo.gain_transform = {1, 2};
  const Image<float> got = MovieReader(s.movie, mo).read_all();
  const Image<float> want = s.corrected({1, 2});
  double worst = 0;
  for (index_t i = 0; i < want.size(); ++i) worst = std::max(worst, double(std::abs(got[i] - want[i])));
  std::printf("max |frame - (R - D) G| = %.3g\n", worst);
  EXPECT_LT(worst, 1e-6);
  mo.gain_transform = {0, 0};
  try {
    MovieReader bad(s.movie, mo);
    FAIL() << "unrotated gain accepted";
  } catch (const Error& e) {
    const std::string msg = e.what();
    std::printf("%s\n", msg.c_str());
    EXPECT_NE(msg.find("24x32"), std::string::npos);
    EXPECT_NE(msg.find("32x24"), std::string::npos);
    EXPECT_NE(msg.find("--gain-rot 1"), std::string::npos);
  }
}

TEST(MovieReaderSynthetic, BinnedFramesEqualTheBinnerOnCorrectedFrames) {
  SyntheticMovie s;
  MovieReadOptions mo;
  mo.gain = s.gain;
  mo.gain_transform = {3, 0};
  mo.bin = 1.5;
  MovieReader reader(s.movie, mo);
  EXPECT_EQ(reader.frame_shape(), Shape::image(binned_size(32, 1.5), binned_size(24, 1.5)));
  EXPECT_NEAR(reader.scale_x(), 32.0 / 22.0, 1e-12);
  const Image<float> got = reader.read_all();
  const Image<float> g = orient(s.gain_stored.cview(), {3, 0});
  const FourierBinner binner(32, 24, 1.5);
  double worst = 0;
  for (index_t f = 0; f < SyntheticMovie::kN; ++f) {
    std::vector<float> frame(32 * 24), out(std::size_t(reader.frame_shape().total()));
    for (index_t i = 0; i < 32 * 24; ++i) frame[std::size_t(i)] = s.frames[f * 32 * 24 + i] * g[i];
    binner.apply(frame.data(), out.data());
    for (std::size_t i = 0; i < out.size(); ++i)
      worst = std::max(worst, double(std::abs(out[i] - got[f * reader.frame_shape().total() + index_t(i)])));
  }
  std::printf("binned through MovieReader vs by hand: max difference %.3g\n", worst);
  EXPECT_LT(worst, 1e-6);
}

TEST(MovieReaderSynthetic, DefectsAndHotPixelsAreReplacedTheSameForAnyThreadCount) {
  SyntheticMovie s;
  // A hot pixel: high in every frame.
  Image<float> hot(s.frames.shape());
  std::copy(s.frames.begin(), s.frames.end(), hot.begin());
  for (index_t f = 0; f < SyntheticMovie::kN; ++f) hot(7, 9, 0, f) = 500;
  const std::string path = s.dir.file("hot.mrcs");
  io::write_image(path, hot.cview());
  const std::string defects = s.dir.file("defects.txt");
  std::ofstream(defects) << "20 3 1 2\n";
  MovieReadOptions mo;
  mo.hot_pixel_sigma = 6;
  mo.defects = defects;
  mo.seed = 5;
  mo.threads = 1;
  MovieReader one(path, mo);
  const Image<float> a = one.read_all();
  EXPECT_EQ(one.hot_pixels().count, 1);
  EXPECT_EQ(one.bad_pixel_mask()(7, 9), kHotPixel);
  EXPECT_EQ(one.bad_pixel_mask()(20, 4), kDefectPixel);
  for (index_t f = 0; f < SyntheticMovie::kN; ++f) {
    EXPECT_LT(a(7, 9, 0, f), 6.0f) << "hot pixel not replaced in frame " << f;
    EXPECT_EQ(a(8, 9, 0, f), s.frames(8, 9, 0, f)); // neighbours untouched
  }
  mo.threads = 3;
  const Image<float> b = MovieReader(path, mo).read_all();
  std::printf("hot pixel threshold %.2f; 1 vs 3 threads: %lld values differ\n", one.hot_pixels().threshold,
              (long long)count_differences(a, b));
  EXPECT_EQ(count_differences(a, b), 0);
  // With binning the raw frames are held once, replaced, then binned: same as binning `a`.
  mo.bin = 2;
  const Image<float> c = MovieReader(path, mo).read_all();
  const FourierBinner binner(32, 24, 2.0);
  std::vector<float> out(16 * 12);
  binner.apply(a.data() + 2 * 32 * 24, out.data());
  for (index_t i = 0; i < 16 * 12; ++i) EXPECT_NEAR(c[2 * 16 * 12 + i], out[std::size_t(i)], 1e-5);
}

// --eer-dose-per-fraction (docs/formats.md#eer-fractions-and-upsampling): G = round(d / d_raw) with
// d_raw from the metadata XML; the reader reports the grouping it used and the raw-frame dose (what
// the STARs record).
TEST(MovieReaderEer, DosePerFractionGroupsByTheMetadataDose) {
  if (!io::eer_supported()) GTEST_SKIP() << "frost was built without libtiff (EER support)";
  test::TempDir dir;
  std::vector<std::vector<unsigned char>> streams;
  const auto frames = test::three_test_frames();
  for (int i = 0; i < 10; ++i)
    streams.push_back(test::encode_eer_frame(frames[std::size_t(i % 3)], 64 * 40, {7, 4, false}));
  // 10 frames, 5 e/px in total on 1 Å pixels: 0.5 e/Å² per raw frame.
  const std::string xml = "<metadata><item name=\"numberOfFrames\">10</item><item name=\"totalDose\">5</item>"
                          "<item name=\"sensorPixelSize.height\">1e-10</item>"
                          "<item name=\"sensorPixelSize.width\">1e-10</item></metadata>";
  const std::string path = dir.file("dosed.eer");
  std::string why;
  if (!test::write_eer_tiff(path, streams, 64, 40, 65001, false, &why, 7, 2, xml)) GTEST_SKIP() << why;
  MovieReadOptions mo;
  mo.eer_dose_per_fraction = 1.6; // 3.2 raw frames: G = 3, 3 fractions, 1 frame dropped
  {
    MovieReader reader(path, mo);
    EXPECT_EQ(reader.eer_frames_per_fraction(), 3);
    EXPECT_EQ(reader.frame_count(), 3);
    EXPECT_DOUBLE_EQ(reader.eer_raw_frame_dose(), 0.5);
  }
  mo.eer_frames_per_fraction = 5; // --eer-group wins
  {
    MovieReader reader(path, mo);
    EXPECT_EQ(reader.eer_frames_per_fraction(), 5);
    EXPECT_EQ(reader.frame_count(), 2);
  }
  mo.eer_frames_per_fraction = 0;
  mo.eer_dose_per_fraction = 0; // --eer-fractions 40 does not fit 10 frames; 4 does (G = 2)
  mo.eer_fractions = 4;
  EXPECT_EQ(MovieReader(path, mo).eer_frames_per_fraction(), 2);

  // Without the dose in the metadata: an Input error that names what is missing.
  const std::string bare = dir.file("bare.eer");
  if (!test::write_eer_tiff(bare, streams, 64, 40, 65001, false, &why)) GTEST_SKIP() << why;
  mo.eer_dose_per_fraction = 1.0;
  try {
    MovieReader reader(bare, mo);
    FAIL() << "a dose per fraction was accepted without the dose in the metadata";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    const std::string what = e.what();
    EXPECT_NE(what.find("bare.eer"), std::string::npos) << what;
    EXPECT_NE(what.find("totalDose"), std::string::npos) << what;
    std::printf("%s\n", what.c_str());
  }
}

TEST(MovieReaderEer, FractionsAtUpsampling2WithACountGain) {
  if (!io::eer_supported()) GTEST_SKIP() << "frost was built without libtiff (EER support)";
  test::TempDir dir;
  const std::string path = dir.file("movie.eer");
  std::vector<std::vector<unsigned char>> streams;
  const auto frames = test::three_test_frames();
  for (const auto& f : frames) streams.push_back(test::encode_eer_frame(f, 64 * 40, {7, 4, false}));
  streams.push_back(streams[0]); // 4 raw frames: 2 fractions of 2
  std::string why;
  if (!test::write_eer_tiff(path, streams, 64, 40, 65001, true, &why)) GTEST_SKIP() << why;
  // A count reference at the sensor size: 2 everywhere, 4 in one column, 0 on one pixel.
  Image<float> counts(Shape::image(64, 40));
  for (float& c : counts) c = 2;
  for (index_t y = 0; y < 40; ++y) counts(10, y) = 4;
  counts(1153 % 64, 1153 / 64) = 0; // the pixel hit in every frame becomes a defect
  const std::string gain = dir.file("counts.mrc");
  io::write_image(gain, counts.cview());
  MovieReadOptions mo;
  mo.eer_upsampling = 2;
  mo.eer_frames_per_fraction = 2;
  mo.gain = gain;
  MovieReader reader(path, mo);
  EXPECT_TRUE(reader.is_eer());
  ASSERT_EQ(reader.frame_count(), 2);
  EXPECT_EQ(reader.frame_shape(), Shape::image(128, 80));
  const Image<float> got = reader.read_all();
  double mean = 0;
  index_t nonzero = 0;
  for (float c : counts)
    if (c != 0) {
      mean += c;
      ++nonzero;
    }
  mean /= double(nonzero);
  const Image<float> want0 = test::expected_render({frames[0], frames[1]}, 64, 40, 2);
  const index_t bad_x = 2 * (1153 % 64), bad_y = 2 * (1153 / 64);
  index_t wrong = 0;
  for (index_t y = 0; y < 80; ++y)
    for (index_t x = 0; x < 128; ++x) {
      if (std::abs(x - bad_x) <= 1 && std::abs(y - bad_y) <= 1) continue; // replaced pixels
      const float g = float(mean / counts(x / 2, y / 2));
      wrong += std::abs(got(x, y) - want0(x, y) * g) > 1e-6f;
    }
  std::printf("EER u=2, 2 fractions of 2: %lld pixels differ from counts x mean/value (mean %.4f)\n", (long long)wrong, mean);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(count_bad(reader.bad_pixel_mask().cview()), 4); // one sensor pixel = 2x2 render pixels
}

} // namespace
} // namespace frost::motion
