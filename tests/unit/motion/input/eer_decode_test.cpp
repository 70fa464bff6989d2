// EER bit streams (docs/formats.md#decoding-an-eer-frame, docs/movie_align.md#unit-checks): hand-made
// bytes pin the bit order and the symbol inversion, and the library's encoder writes them; its
// streams (run lengths of exactly 127/255 and their multiples, every symbol) decode to the
// electrons they were made from and render at u = 1, 2, 4.
#include "eer_test_files.hpp"
#include "frost/core/error.hpp"
#include "frost/io/eer_decode.hpp"
#include "frost/io/eer_encode.hpp"
#include "frost/test/support.hpp"

namespace frost::io {
namespace {

using test::Electron;
using test::StreamLayout;

constexpr std::int64_t kPixels = test::kTestSensorWidth * test::kTestSensorHeight;

EerEncoding encoding_of(const StreamLayout& l) { return {l.run_bits, l.symbol_bits, l.max_run_has_symbol}; }

TEST(EerDecode, HandMadeEightBitBytes) {
  // Electron at pixel 3 with x quarter 1 and y quarter 2 (s = 1 | 2<<2 = 9, stored 9 ^ 0x0A = 3),
  // then a run of 4 to the end of an 8-pixel frame: bytes 03 | 4 3 | 0 0, LSB first.
  const unsigned char bytes[] = {0x03, 0x43, 0x00};
  std::vector<EerEvent> events;
  ASSERT_TRUE(decode_eer_frame(bytes, sizeof bytes, eer_encoding_for_compression(65000, "t"), 8, events));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].position, 3u);
  EXPECT_EQ(events[0].symbol, 9u);
  std::printf("8-bit: electron at %u symbol %u\n", events[0].position, unsigned(events[0].symbol));
}

TEST(EerDecode, HandMadeSevenBitBytes) {
  // 7-bit run 3 (bits 0-6), stored symbol 3 (bits 7-10), run 4 (bits 11-17): 83 21 00.
  const unsigned char bytes[] = {0x83, 0x21, 0x00};
  std::vector<EerEvent> events;
  ASSERT_TRUE(decode_eer_frame(bytes, sizeof bytes, eer_encoding_for_compression(65001, "t"), 8, events));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].position, 3u);
  EXPECT_EQ(events[0].symbol, 9u);
}

TEST(EerEncode, WritesTheHandMadeBytes) {
  // The same two frames as above, from the library's encoder: an electron at pixel 3 with x
  // quarter 1 and y quarter 2 in an 8-pixel frame; the last run gets a filler symbol and the
  // stream an even number of bytes.
  const std::vector<EerEvent> events = {{3u, eer_symbol(1, 2, 4)}};
  EXPECT_EQ(encode_eer_frame(events, 8, eer_encoding_for_compression(65000, "t")),
            (std::vector<unsigned char>{0x03, 0x43, 0x00, 0x00}));
  EXPECT_EQ(encode_eer_frame(events, 8, eer_encoding_for_compression(65001, "t")),
            (std::vector<unsigned char>{0x83, 0x21, 0x00, 0x00}));
  // Unsorted or repeated electrons cannot be coded.
  EXPECT_THROW(encode_eer_frame({{5u, 0}, {5u, 0}}, 8, eer_encoding_for_compression(65001, "t")), Error);
  EXPECT_THROW(encode_eer_frame({{8u, 0}}, 8, eer_encoding_for_compression(65001, "t")), Error);
}

TEST(EerDecode, CompressionCodesMapToEncodings) {
  const EerEncoding e8 = eer_encoding_for_compression(65000, "t"), e7 = eer_encoding_for_compression(65001, "t");
  EXPECT_EQ(e8.run_bits, 8);
  EXPECT_TRUE(e8.max_run_has_symbol);
  EXPECT_EQ(e8.max_run(), 255u);
  EXPECT_EQ(e7.run_bits, 7);
  EXPECT_FALSE(e7.max_run_has_symbol);
  EXPECT_EQ(e7.max_run(), 127u);
  EXPECT_EQ(make_detailed_eer_encoding(7, 1, 1, "t").symbol_bits, 2);
  EXPECT_EQ(make_detailed_eer_encoding(7, 1, 1, "t").symbol_xor(), 3u);
  EXPECT_THROW(make_detailed_eer_encoding(9, 2, 2, "t"), Error);
  EXPECT_THROW(eer_encoding_for_compression(5, "t"), Error);
}

class EerStreams : public ::testing::TestWithParam<StreamLayout> {};

TEST_P(EerStreams, DecodeToTheEncodedElectrons) {
  const StreamLayout layout = GetParam();
  const auto frames = test::three_test_frames();
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const auto stream = test::encode_eer_frame(frames[f], kPixels, layout);
    std::vector<EerEvent> events;
    ASSERT_TRUE(decode_eer_frame(stream.data(), stream.size(), encoding_of(layout), kPixels, events)) << "frame " << f;
    std::printf("%d-bit runs, frame %zu: %zu bytes, %zu electrons decoded\n", layout.run_bits, f, stream.size(),
                events.size());
    ASSERT_EQ(events.size(), frames[f].size());
    for (std::size_t i = 0; i < events.size(); ++i) {
      EXPECT_EQ(index_t(events[i].position), frames[f][i].position);
      EXPECT_EQ(int(events[i].symbol), frames[f][i].sx | frames[f][i].sy << 2) << "electron " << i;
    }
  }
}

TEST_P(EerStreams, RenderAtUpsampling124) {
  const StreamLayout layout = GetParam();
  const auto frames = test::three_test_frames();
  for (int u : {1, 2, 4}) {
    Image<float> grid(Shape::image(test::kTestSensorWidth * u, test::kTestSensorHeight * u));
    std::vector<EerEvent> events;
    for (const auto& f : frames) {
      const auto stream = test::encode_eer_frame(f, kPixels, layout);
      ASSERT_TRUE(decode_eer_frame(stream.data(), stream.size(), encoding_of(layout), kPixels, events));
      render_eer_events(events, test::kTestSensorWidth, 4, u, grid.data());
    }
    const Image<float> want = test::expected_render(frames, test::kTestSensorWidth, test::kTestSensorHeight, u);
    double total = 0;
    index_t wrong = 0;
    for (index_t i = 0; i < want.size(); ++i) {
      total += grid[i];
      wrong += grid[i] != want[i];
    }
    std::printf("u=%d: %lld electrons rendered, %lld pixels differ\n", u, (long long)total, (long long)wrong);
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(total, 21.0);
    // Pixel 1153 is hit in all three frames: at u = 1 it holds 3 counts.
    if (u == 1) {
      EXPECT_EQ(grid(1153 % 64, 1153 / 64), 3.0f);
    }
  }
}

TEST_P(EerStreams, TruncatedOrOverlongFramesAreCorrupt) {
  const StreamLayout layout = GetParam();
  const auto frames = test::three_test_frames();
  auto stream = test::encode_eer_frame(frames[1], kPixels, layout);
  std::vector<EerEvent> events;
  const std::vector<unsigned char> cut(stream.begin(), stream.begin() + std::ptrdiff_t(stream.size() / 2));
  EXPECT_FALSE(decode_eer_frame(cut.data(), cut.size(), encoding_of(layout), kPixels, events));
  // The same stream read against a smaller sensor runs past its last pixel.
  EXPECT_FALSE(decode_eer_frame(stream.data(), stream.size(), encoding_of(layout), kPixels - 100, events));
  // And against a larger one it ends too early.
  EXPECT_FALSE(decode_eer_frame(stream.data(), stream.size(), encoding_of(layout), kPixels + 1000, events));
}

INSTANTIATE_TEST_SUITE_P(Layouts, EerStreams,
                         ::testing::Values(StreamLayout{8, 4, true}, StreamLayout{7, 4, false}, StreamLayout{8, 4, false}),
                         [](const ::testing::TestParamInfo<StreamLayout>& p) {
                           return std::to_string(p.param.run_bits) + "bit" +
                                  (p.param.max_run_has_symbol ? "Units12" : "Variable");
                         });

TEST(EerDecode, TwoBitSymbolsRenderHalfPixels) {
  const StreamLayout layout{7, 2, false};
  const auto frames = test::three_test_frames();
  const EerEncoding enc = make_detailed_eer_encoding(7, 1, 1, "t");
  Image<float> grid(Shape::image(test::kTestSensorWidth * 2, test::kTestSensorHeight * 2));
  std::vector<EerEvent> events;
  for (const auto& f : frames) {
    const auto stream = test::encode_eer_frame(f, kPixels, layout);
    ASSERT_TRUE(decode_eer_frame(stream.data(), stream.size(), enc, kPixels, events));
    render_eer_events(events, test::kTestSensorWidth, 2, 2, grid.data());
  }
  const Image<float> want = test::expected_render(frames, test::kTestSensorWidth, test::kTestSensorHeight, 2, 2);
  index_t wrong = 0;
  for (index_t i = 0; i < want.size(); ++i) wrong += grid[i] != want[i];
  EXPECT_EQ(wrong, 0);
}

TEST(EerDecode, EightBitUnitsMatter) {
  // A 12-bit-unit stream read as variable-length codes must not silently give the same events.
  const auto frames = test::three_test_frames();
  const auto stream = test::encode_eer_frame(frames[0], kPixels, {8, 4, true});
  std::vector<EerEvent> events;
  const bool ok = decode_eer_frame(stream.data(), stream.size(), {8, 4, false}, kPixels, events);
  bool same = ok && events.size() == frames[0].size();
  for (std::size_t i = 0; same && i < events.size(); ++i) same = index_t(events[i].position) == frames[0][i].position;
  std::printf("12-bit units read as variable codes: %s, %zu events\n", ok ? "complete" : "corrupt", events.size());
  EXPECT_FALSE(same);
}

} // namespace
} // namespace frost::io
