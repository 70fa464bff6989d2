// EER files (docs/movie_align.md#movie-formats): a synthetic 3-frame movie with known electron
// positions, written as TIFF with libtiff under the custom compression codes (and as a legacy
// raw file), read back at u = 1, 2, 4; corrupt frames and fraction remainders warn.
#include <thread>

#include "eer_test_files.hpp"
#include "frost/core/error.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/io/image_io.hpp"
#include "frost/test/support.hpp"

namespace frost::io {
namespace {

using test::StreamLayout;

constexpr std::int64_t kW = test::kTestSensorWidth, kH = test::kTestSensorHeight;

std::vector<std::vector<unsigned char>> encode_all(const StreamLayout& layout) {
  std::vector<std::vector<unsigned char>> streams;
  for (const auto& f : test::three_test_frames()) streams.push_back(test::encode_eer_frame(f, kW * kH, layout));
  return streams;
}

/// Writes an EER TIFF of the test sensor size; the calling test skips when this is false.
bool write_eer(const std::string& path, const std::vector<std::vector<unsigned char>>& streams, int compression,
               bool bigtiff, std::string* why, int run_bits = 7, int sub_bits = 2, const std::string& metadata = "") {
  return test::write_eer_tiff(path, streams, kW, kH, compression, bigtiff, why, run_bits, sub_bits, metadata);
}

index_t count_differences(const float* got, const Image<float>& want) {
  index_t n = 0;
  for (index_t i = 0; i < want.size(); ++i) n += got[i] != want[i];
  return n;
}

struct Case {
  int compression;
  StreamLayout layout;
  bool bigtiff;
};

class EerTiff : public ::testing::TestWithParam<Case> {};

TEST_P(EerTiff, EachFrameRendersAtUpsampling124) {
  const Case c = GetParam();
  test::TempDir dir;
  const std::string path = dir.file("movie.eer");
  std::string why;
  if (!write_eer(path, encode_all(c.layout), c.compression, c.bigtiff, &why)) GTEST_SKIP() << why;
  const auto frames = test::three_test_frames();
  for (int u : {1, 2, 4}) {
    EerOptions o;
    o.upsampling = u;
    EerReader r(path, o);
    ASSERT_EQ(r.raw_frames(), 3);
    EXPECT_EQ(r.count(), 3);
    EXPECT_EQ(r.info().shape, (Shape{kW * u, kH * u, 1, 3}));
    EXPECT_EQ(r.encoding().run_bits, c.layout.run_bits);
    EXPECT_FALSE(r.legacy());
    for (index_t f = 0; f < 3; ++f) {
      const Image<float> got = r.read(f);
      const Image<float> want = test::expected_render({frames[std::size_t(f)]}, kW, kH, u);
      const index_t wrong = count_differences(got.data(), want);
      std::printf("compression %d u=%d frame %lld: %lld pixels differ\n", c.compression, u, (long long)f, (long long)wrong);
      EXPECT_EQ(wrong, 0);
    }
    EXPECT_EQ(r.corrupt_frames_seen(), 0);
  }
}

TEST_P(EerTiff, ThreeFramesInOneFractionAreSummed) {
  const Case c = GetParam();
  test::TempDir dir;
  const std::string path = dir.file("movie.eer");
  std::string why;
  if (!write_eer(path, encode_all(c.layout), c.compression, c.bigtiff, &why)) GTEST_SKIP() << why;
  EerOptions o;
  o.upsampling = 2;
  o.frames_per_fraction = 3;
  EerReader r(path, o);
  ASSERT_EQ(r.count(), 1);
  EXPECT_EQ(r.info().content, Content::Image);
  const Image<float> want = test::expected_render(test::three_test_frames(), kW, kH, 2);
  EXPECT_EQ(count_differences(r.read(0).data(), want), 0);
}

INSTANTIATE_TEST_SUITE_P(Encodings, EerTiff,
                         ::testing::Values(Case{65000, {8, 4, true}, false}, Case{65001, {7, 4, false}, false},
                                           Case{65001, {7, 4, false}, true}),
                         [](const ::testing::TestParamInfo<Case>& p) {
                           return std::to_string(p.param.compression) + (p.param.bigtiff ? "BigTiff" : "Classic");
                         });

TEST(EerReader, DetailedCompressionWithHalfPixelBits) {
  test::TempDir dir;
  const std::string path = dir.file("detailed.eer");
  std::string why;
  const std::string xml = "<metadata><item name=\"numberOfFrames\">3</item></metadata>";
  if (!write_eer(path, encode_all({7, 2, false}), 65002, true, &why, 7, 1, xml)) GTEST_SKIP() << why;
  EerOptions o;
  o.upsampling = 2;
  EerReader r(path, o);
  EXPECT_EQ(r.encoding().symbol_bits, 2);
  EXPECT_EQ(r.metadata_xml(), xml);
  const auto frames = test::three_test_frames();
  for (index_t f = 0; f < 3; ++f)
    EXPECT_EQ(count_differences(r.read(f).data(), test::expected_render({frames[std::size_t(f)]}, kW, kH, 2, 2)), 0);
  o.upsampling = 4;
  try {
    EerReader r4(path, o);
    FAIL() << "upsampling 4 accepted for 1+1 sub-pixel bits";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    std::printf("%s\n", e.what());
  }
}

TEST(EerReader, TruncatedFrameIsSkippedWithAWarning) {
  test::TempDir dir;
  const std::string path = dir.file("truncated.eer");
  auto streams = encode_all({7, 4, false});
  streams[1].resize(streams[1].size() - 3); // frame 1 loses its last codes
  std::string why;
  if (!write_eer(path, streams, 65001, false, &why)) GTEST_SKIP() << why;
  EerReader r(path);
  testing::internal::CaptureStderr();
  const Image<float> f1 = r.read(1);
  const std::string log = testing::internal::GetCapturedStderr();
  std::printf("log: %s", log.c_str());
  EXPECT_NE(log.find("raw EER frame 1 is corrupt"), std::string::npos);
  EXPECT_EQ(r.corrupt_frames_seen(), 1);
  double total = 0;
  for (float v : f1) total += v;
  EXPECT_EQ(total, 0.0); // the corrupt frame contributes nothing
  // In a fraction, the other frames still count.
  EerOptions o;
  o.frames_per_fraction = 3;
  EerReader all(path, o);
  testing::internal::CaptureStderr();
  const Image<float> sum = all.read(0);
  testing::internal::GetCapturedStderr();
  const auto frames = test::three_test_frames();
  EXPECT_EQ(count_differences(sum.data(), test::expected_render({frames[0], frames[2]}, kW, kH, 1)), 0);
}

TEST(EerReader, FractionRemainderIsDroppedWithAWarning) {
  test::TempDir dir;
  const std::string path = dir.file("movie.eer");
  std::string why;
  if (!write_eer(path, encode_all({7, 4, false}), 65001, false, &why)) GTEST_SKIP() << why;
  EerOptions o;
  o.frames_per_fraction = 2;
  testing::internal::CaptureStderr();
  EerReader r(path, o);
  std::string log = testing::internal::GetCapturedStderr();
  std::printf("log: %s", log.c_str());
  EXPECT_NE(log.find("the last 1 frame(s) are not used"), std::string::npos);
  ASSERT_EQ(r.count(), 1);
  const auto frames = test::three_test_frames();
  EXPECT_EQ(count_differences(r.read(0).data(), test::expected_render({frames[0], frames[1]}, kW, kH, 1)), 0);
  // Two fractions requested: G = floor(3 / 2) = 1, frame 2 dropped.
  o.frames_per_fraction = 0;
  o.fractions = 2;
  testing::internal::CaptureStderr();
  EerReader r2(path, o);
  log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(r2.frames_per_fraction(), 1);
  EXPECT_EQ(r2.count(), 2);
  EXPECT_NE(log.find("not used"), std::string::npos);
  // Without a remainder there is no warning.
  o.fractions = 3;
  testing::internal::CaptureStderr();
  EerReader r3(path, o);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  o.fractions = 4;
  EXPECT_THROW(EerReader(path, o), Error);
}

TEST(EerReader, LegacyFileWithFooters) {
  if (!eer_supported()) GTEST_SKIP() << "frost was built without libtiff (EER support)";
  test::TempDir dir;
  const std::string path = dir.file("legacy.eer");
  test::write_legacy_eer(path, encode_all({8, 4, true}));
  EerOptions o;
  o.legacy_width = kW;
  o.legacy_height = kH;
  o.upsampling = 4;
  EerReader r(path, o);
  EXPECT_TRUE(r.legacy());
  ASSERT_EQ(r.raw_frames(), 3);
  const auto frames = test::three_test_frames();
  for (index_t f = 0; f < 3; ++f)
    EXPECT_EQ(count_differences(r.read(f).data(), test::expected_render({frames[std::size_t(f)]}, kW, kH, 4)), 0);
  // A file that is neither TIFF nor legacy EER.
  const std::string junk = dir.file("junk.eer");
  std::FILE* fp = std::fopen(junk.c_str(), "wb");
  std::fputs("this is not an EER file at all, not even close", fp);
  std::fclose(fp);
  EXPECT_THROW(EerReader{junk}, Error);
}

TEST(EerReader, DispatchByExtensionAndParallelReads) {
  test::TempDir dir;
  const std::string path = dir.file("movie.eer");
  std::string why;
  if (!write_eer(path, encode_all({7, 4, false}), 65001, false, &why)) GTEST_SKIP() << why;
  const LoadedImage stack = read_stack(path); // one item per raw frame at the sensor grid
  EXPECT_EQ(stack.image.shape(), (Shape{kW, kH, 1, 3}));
  const auto frames = test::three_test_frames();
  EXPECT_EQ(count_differences(stack.image.data() + kW * kH, test::expected_render({frames[1]}, kW, kH, 1)), 0);

  EerOptions o;
  o.upsampling = 4;
  EerReader r(path, o);
  std::vector<Image<float>> got(12);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i) threads.emplace_back([&, i] { got[i] = r.read(index_t(i % 3)); });
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(count_differences(got[i].data(), test::expected_render({frames[i % 3]}, kW, kH, 4)), 0) << i;
}

TEST(EerReader, WithoutLibtiffTheErrorSaysWhy) {
  if (eer_supported()) GTEST_SKIP() << "built with libtiff: EER files are read";
  try {
    EerReader r("movie.eer");
    FAIL() << "EER opened without libtiff";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("without EER support"), std::string::npos) << e.what();
  }
}

TEST(EerReader, OrdinaryTiffIsNotEer) {
  if (!eer_supported()) GTEST_SKIP() << "frost was built without libtiff (EER support)";
  FROST_REQUIRE_DATA(klh, "xmipp/KLH.tif");
  try {
    EerReader r(klh);
    FAIL() << "a PackBits TIFF was accepted as EER";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("32773"), std::string::npos) << e.what();
    std::printf("%s\n", e.what());
  }
}

} // namespace
} // namespace frost::io
