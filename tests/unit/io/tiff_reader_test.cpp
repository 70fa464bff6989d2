// TIFF movies (docs/formats.md#tiff-movies): real files decoded independently, and multi-frame
// files written here with libtiff in every supported sample type and the usual compressions.
#include <tiffio.h>

#include <functional>
#include <map>
#include <thread>

#include "frost/core/error.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/mrc_codec.hpp"
#include "frost/io/mrc_reader.hpp"
#include "frost/io/tiff_reader.hpp"
#include "frost/test/support.hpp"
#include "io_test_util.hpp"

namespace frost::io {
namespace {

using test::Bytes;

ReadOptions no_flip() {
  ReadOptions o;
  o.tiff_flip_y = false;
  return o;
}

/// Minimal reader of a little-endian, single-directory, PackBits-compressed 8-bit TIFF, written
/// for the test so that the library's result is compared with a decoder that shares nothing with it.
std::vector<unsigned char> decode_packbits_tiff(const Bytes& f, std::uint32_t* width, std::uint32_t* height) {
  const auto u16 = [&](std::size_t o) { return std::uint16_t(f[o] | f[o + 1] << 8); };
  const auto u32 = [&](std::size_t o) { return std::uint32_t(f[o] | f[o + 1] << 8 | f[o + 2] << 16 | std::uint32_t(f[o + 3]) << 24); };
  const std::uint32_t ifd = u32(4);
  std::map<int, std::vector<std::uint32_t>> tags;
  for (int i = 0; i < u16(ifd); ++i) {
    const std::size_t e = ifd + 2 + 12 * std::size_t(i);
    const int tag = u16(e), type = u16(e + 2);
    const std::uint32_t count = u32(e + 4);
    const std::size_t size = type == 3 ? 2 : 4;
    const std::size_t at = count * size <= 4 ? e + 8 : u32(e + 8);
    for (std::uint32_t k = 0; k < count; ++k) tags[tag].push_back(size == 2 ? u16(at + 2 * k) : u32(at + 4 * k));
  }
  EXPECT_EQ(tags[259].at(0), 32773u); // PackBits
  *width = tags[256].at(0);
  *height = tags[257].at(0);
  std::vector<unsigned char> out;
  for (std::size_t s = 0; s < tags[273].size(); ++s) {
    std::size_t p = tags[273][s];
    const std::size_t end = p + tags[279][s];
    while (p < end) {
      const auto n = static_cast<signed char>(f[p++]);
      if (n >= 0) {
        out.insert(out.end(), f.begin() + std::ptrdiff_t(p), f.begin() + std::ptrdiff_t(p + std::size_t(n) + 1));
        p += std::size_t(n) + 1;
      } else if (n != -128) {
        out.insert(out.end(), std::size_t(1 - n), f[p++]);
      }
    }
  }
  return out;
}

TEST(TiffReal, KlhPackBitsMatchesAnIndependentDecoder) {
  FROST_REQUIRE_DATA(path, "xmipp/KLH.tif");
  std::uint32_t w = 0, h = 0;
  const std::vector<unsigned char> ref = decode_packbits_tiff(test::read_bytes(path), &w, &h);
  ASSERT_EQ(ref.size(), std::size_t(w) * h);
  TiffReader plain(path, no_flip());
  EXPECT_EQ(plain.info().shape, Shape::image(760, 844));
  EXPECT_EQ(plain.info().sample, SampleType::UInt8);
  EXPECT_EQ(plain.info().content, Content::Image);
  const Image<float> a = plain.read(0);
  for (std::size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(a[index_t(i)], float(ref[i])) << i;
  // Default: rows flipped (docs/formats.md#tiff-movies).
  const LoadedImage b = read_image(path);
  EXPECT_EQ(b.info.format, FileFormat::Tiff);
  for (index_t y : {index_t(0), index_t(100), index_t(843)})
    for (index_t x : {index_t(0), index_t(377), index_t(759)}) EXPECT_EQ(b.image(x, y), a(x, 843 - y));
}

TEST(TiffReal, XmippSingleImageEqualsTheMrcWithoutFlip) {
  FROST_REQUIRE_DATA(tif, "xmipp/singleImage.tif");
  FROST_REQUIRE_DATA(mrc, "xmipp/singleImage.mrc");
  const LoadedImage t = read_image(tif, no_flip());
  const LoadedImage m = read_image(mrc);
  EXPECT_EQ(t.info.sample, SampleType::Float32);
  ASSERT_EQ(t.image.shape(), m.image.shape());
  for (index_t i = 0; i < 9; ++i) EXPECT_EQ(t.image[i], m.image[i]);
  const LoadedImage flipped = read_image(tif);
  for (index_t y = 0; y < 3; ++y)
    for (index_t x = 0; x < 3; ++x) EXPECT_EQ(flipped.image(x, y), m.image(x, 2 - y));
  EXPECT_GT(t.info.pixel(), 0.0); // resolution in centimetres is present
}

struct Sample {
  int bits;
  int format; // 0: leave SampleFormat out
  double lo, hi;
};

/// Writes `frames` frames of width x height with libtiff and returns the values written.
std::vector<float> write_tiff(const std::string& path, const Sample& s, int compression, bool tiled,
                              std::uint32_t width, std::uint32_t height, int frames, std::uint32_t seed,
                              std::uint32_t rows_per_strip = 7) {
  TIFF* tif = TIFFOpen(path.c_str(), "w");
  EXPECT_NE(tif, nullptr);
  std::vector<float> values;
  std::uint32_t state = seed;
  const std::size_t bpp = std::size_t(s.bits) / 8;
  for (int f = 0; f < frames; ++f) {
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, s.bits);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    if (s.format) TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, s.format);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, compression);
    // Predictors as counting-camera software uses them; libtiff's float predictor needs the tag.
    if ((compression == COMPRESSION_LZW || compression == COMPRESSION_ADOBE_DEFLATE) && s.format != 0)
      TIFFSetField(tif, TIFFTAG_PREDICTOR, s.format == SAMPLEFORMAT_IEEEFP ? 3 : 2);
    std::vector<unsigned char> frame(std::size_t(width) * height * bpp);
    for (std::size_t i = 0; i < std::size_t(width) * height; ++i) {
      state = state * 1664525u + 1013904223u;
      const double u = double(state >> 8) / double(1u << 24);
      double v = s.lo + u * (s.hi - s.lo);
      const bool is_float = s.format == SAMPLEFORMAT_IEEEFP || (!s.format && s.bits == 32);
      if (!is_float) v = std::floor(v);
      if (i % 97 == 0) v = is_float ? v : (i % 2 ? s.lo : s.hi); // extremes of the type
      values.push_back(float(v));
      unsigned char* d = frame.data() + i * bpp;
      if (is_float) { const float x = float(v); std::memcpy(d, &x, 4); }
      else if (s.bits == 8) { const auto x = s.format == SAMPLEFORMAT_INT ? std::uint8_t(std::int8_t(v)) : std::uint8_t(v); std::memcpy(d, &x, 1); }
      else if (s.bits == 16) { const auto x = s.format == SAMPLEFORMAT_INT ? std::uint16_t(std::int16_t(v)) : std::uint16_t(v); std::memcpy(d, &x, 2); }
      else { const auto x = s.format == SAMPLEFORMAT_INT ? std::uint32_t(std::int32_t(v)) : std::uint32_t(v); std::memcpy(d, &x, 4); }
    }
    if (tiled) {
      TIFFSetField(tif, TIFFTAG_TILEWIDTH, 16);
      TIFFSetField(tif, TIFFTAG_TILELENGTH, 16);
      std::vector<unsigned char> tile(16 * 16 * bpp);
      for (std::uint32_t y0 = 0; y0 < height; y0 += 16)
        for (std::uint32_t x0 = 0; x0 < width; x0 += 16) {
          std::fill(tile.begin(), tile.end(), 0);
          for (std::uint32_t y = y0; y < std::min(height, y0 + 16); ++y)
            for (std::uint32_t x = x0; x < std::min(width, x0 + 16); ++x)
              std::memcpy(&tile[((y - y0) * 16 + (x - x0)) * bpp], &frame[(std::size_t(y) * width + x) * bpp], bpp);
          TIFFWriteTile(tif, tile.data(), x0, y0, 0, 0);
        }
    } else {
      TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, rows_per_strip);
      for (std::uint32_t y = 0; y < height; ++y) TIFFWriteScanline(tif, &frame[std::size_t(y) * width * bpp], y, 0);
    }
    TIFFWriteDirectory(tif);
  }
  TIFFClose(tif);
  return values;
}

struct TiffCase {
  const char* name;
  Sample sample;
  SampleType expected;
};

void PrintTo(const TiffCase& c, std::ostream* os) { *os << c.name; }

class TiffSynthetic : public ::testing::TestWithParam<TiffCase> {};

TEST_P(TiffSynthetic, EveryCompressionAndLayoutReadsPixelByPixel) {
  const TiffCase& c = GetParam();
  test::TempDir dir;
  const std::uint32_t w = 37, h = 29;
  const int frames = 3;
  int k = 0;
  for (int compression : {COMPRESSION_NONE, COMPRESSION_LZW, COMPRESSION_ADOBE_DEFLATE, COMPRESSION_PACKBITS}) {
    for (bool tiled : {false, true}) {
      const std::string p = dir.file("m" + std::to_string(k++) + ".tif");
      const std::vector<float> ref = write_tiff(p, c.sample, compression, tiled, w, h, frames, 99u + std::uint32_t(k));
      TiffReader flipped(p), plain(p, no_flip());
      ASSERT_EQ(plain.info().shape, Shape::image(w, h, frames));
      EXPECT_EQ(plain.info().sample, c.expected);
      EXPECT_EQ(plain.info().content, Content::Stack);
      const Image<float> all = plain.read_all();
      for (std::size_t i = 0; i < ref.size(); ++i)
        ASSERT_EQ(all[index_t(i)], ref[i]) << c.name << " compression " << compression << " tiled " << tiled << " i " << i;
      for (int f = frames - 1; f >= 0; --f) { // out of order: directory seeking
        const Image<float> fr = flipped.read(f);
        for (index_t y = 0; y < h; ++y)
          for (index_t x = 0; x < w; ++x)
            ASSERT_EQ(fr(x, y), ref[std::size_t((f * index_t(h) + (h - 1 - y)) * w + x)]);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    SampleTypes, TiffSynthetic,
    ::testing::Values(TiffCase{"uint8", {8, SAMPLEFORMAT_UINT, 0, 255}, SampleType::UInt8},
                      TiffCase{"uint8_untagged", {8, 0, 0, 255}, SampleType::UInt8},
                      TiffCase{"int8", {8, SAMPLEFORMAT_INT, -128, 127}, SampleType::Int8},
                      TiffCase{"uint16", {16, SAMPLEFORMAT_UINT, 0, 65535}, SampleType::UInt16},
                      TiffCase{"int16", {16, SAMPLEFORMAT_INT, -32768, 32767}, SampleType::Int16},
                      TiffCase{"float32", {32, SAMPLEFORMAT_IEEEFP, -1e3, 1e3}, SampleType::Float32},
                      TiffCase{"float32_untagged", {32, 0, -5, 5}, SampleType::Float32}),
    [](const ::testing::TestParamInfo<TiffCase>& i) { return std::string(i.param.name); });

TEST(TiffSynthetic, DirectoriesThatDisagreeAreAnInputError) {
  test::TempDir dir;
  const std::string p = dir.file("mixed.tif");
  TIFF* tif = TIFFOpen(p.c_str(), "w");
  for (std::uint32_t width : {8u, 9u}) {
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, 4u);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 8);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    std::vector<unsigned char> row(width, 1);
    for (std::uint32_t y = 0; y < 4; ++y) TIFFWriteScanline(tif, row.data(), y, 0);
    TIFFWriteDirectory(tif);
  }
  TIFFClose(tif);
  try {
    TiffReader r(p);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find(p), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("directory 1"), std::string::npos) << e.what();
  }
  const std::string junk = dir.file("junk.tif");
  test::write_bytes(junk, Bytes(64, 7));
  EXPECT_THROW(TiffReader r(junk), Error);
}

TEST(TiffSynthetic, FourBitPackedFramesUnpackLowNibbleFirst) {
  EXPECT_TRUE(is_imod_4bit_camera_size(5760, 8184));
  EXPECT_TRUE(is_imod_4bit_camera_size(7676, 3710));
  EXPECT_FALSE(is_imod_4bit_camera_size(4096, 4096));
  test::TempDir dir;
  const std::string p = dir.file("packed.tif");
  const std::vector<float> stored = write_tiff(p, {8, SAMPLEFORMAT_UINT, 0, 255}, COMPRESSION_LZW, false, 10, 6, 2, 5);
  ReadOptions o = no_flip();
  o.tiff_4bit = Switch::Yes;
  TiffReader r(p, o);
  EXPECT_TRUE(r.four_bit_packed());
  EXPECT_EQ(r.info().shape, Shape::image(20, 6, 2));
  EXPECT_EQ(r.info().sample, SampleType::UInt4);
  const Image<float> all = r.read_all();
  for (std::size_t i = 0; i < stored.size(); ++i) {
    const auto byte = unsigned(stored[i]);
    ASSERT_EQ(all[index_t(2 * i)], float(byte & 15u));
    ASSERT_EQ(all[index_t(2 * i + 1)], float(byte >> 4));
  }
  EXPECT_FALSE(TiffReader(p).four_bit_packed()); // Auto: not a camera size
}

TEST(TiffSynthetic, FramesDecodeInParallelAndByAddress) {
  test::TempDir dir;
  const std::string p = dir.file("movie.tiff");
  const std::vector<float> ref = write_tiff(p, {16, SAMPLEFORMAT_UINT, 0, 4000}, COMPRESSION_ADOBE_DEFLATE, false, 48, 40, 12, 3);
  const auto source = open_image_source(p, no_flip());
  std::vector<Image<float>> got(12);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&, t] {
      for (index_t f = t; f < 12; f += 3) got[std::size_t(f)] = source->read(f);
    });
  for (auto& th : threads) th.join();
  for (index_t f = 0; f < 12; ++f)
    for (index_t i = 0; i < 48 * 40; ++i) ASSERT_EQ(got[std::size_t(f)][i], ref[std::size_t(f * 48 * 40 + i)]);
  EXPECT_EQ(image_count(p), 12);
  EXPECT_EQ(read_image("12@" + p, no_flip()).image[5], ref[11 * 48 * 40 + 5]);
  EXPECT_THROW(read_image("13@" + p), Error);
}

// The stored rows a GPU converts itself (docs/formats.md#tiff-movies): any window of rows, in
// read() order, decoded from only the strips that hold it, equals read() once converted as the
// MRC mode of the same samples.
TEST(TiffSynthetic, StoredRowsOfAnyWindowConvertToTheFloatsOfRead) {
  struct Stored {
    Sample sample;
    int mode;
    bool mode0_unsigned;
  };
  const Stored kinds[] = {{{8, SAMPLEFORMAT_UINT, 0, 255}, 0, true},
                          {{8, SAMPLEFORMAT_INT, -128, 127}, 0, false},
                          {{16, SAMPLEFORMAT_INT, -32768, 32767}, 1, false},
                          {{16, SAMPLEFORMAT_UINT, 0, 65535}, 6, false},
                          {{32, SAMPLEFORMAT_IEEEFP, -1e3, 1e3}, 2, false}};
  test::TempDir dir;
  const std::uint32_t w = 23, h = 31;
  int k = 0;
  for (const Stored& kind : kinds)
    for (int compression : {COMPRESSION_NONE, COMPRESSION_LZW, COMPRESSION_ADOBE_DEFLATE})
      for (std::uint32_t rows_per_strip : {1u, 4u, h}) {
        const std::string p = dir.file("s" + std::to_string(k++) + ".tif");
        write_tiff(p, kind.sample, compression, false, w, h, 3, 7u + std::uint32_t(k), rows_per_strip);
        for (bool flip : {true, false}) {
          ReadOptions o;
          o.tiff_flip_y = flip;
          const TiffReader r(p, o);
          const TiffReader::Storage st = r.storage();
          ASSERT_EQ(st.rows_per_strip, index_t(rows_per_strip));
          ASSERT_EQ(st.row_bytes, index_t(mrc_row_bytes(kind.mode, w)));
          for (index_t f : {index_t(2), index_t(0)}) {
            const Image<float> ref = r.read(f);
            for (const auto& [y0, rows] : {std::pair<index_t, index_t>{0, h}, {0, 1}, {3, 9}, {h - 5, 5}, {13, 1}}) {
              std::vector<unsigned char> raw(std::size_t(rows * st.row_bytes));
              r.read_stored_rows(f, y0, rows, raw.data());
              std::vector<float> got(std::size_t(rows) * w);
              decode_mrc_rows(kind.mode, raw.data(), false, kind.mode0_unsigned, w, rows, got.data());
              for (index_t i = 0; i < rows * index_t(w); ++i)
                ASSERT_EQ(got[std::size_t(i)], ref[y0 * index_t(w) + i])
                    << p << " mode " << kind.mode << " flip " << flip << " frame " << f << " rows " << y0 << "+" << rows;
            }
          }
        }
      }
}

TEST(TiffSynthetic, StoredRowsOfFourBitFramesStayPacked) {
  test::TempDir dir;
  const std::string p = dir.file("packed.tif");
  write_tiff(p, {8, SAMPLEFORMAT_UINT, 0, 255}, COMPRESSION_LZW, false, 10, 6, 2, 5, 2);
  ReadOptions o;
  o.tiff_4bit = Switch::Yes;
  const TiffReader r(p, o);
  EXPECT_EQ(r.storage().row_bytes, 10);
  const Image<float> ref = r.read(1);
  std::vector<unsigned char> raw(10 * 3);
  r.read_stored_rows(1, 2, 3, raw.data());
  std::vector<float> got(20 * 3);
  decode_mrc_rows(101, raw.data(), false, false, 20, 3, got.data());
  for (index_t i = 0; i < 60; ++i) ASSERT_EQ(got[std::size_t(i)], ref[40 + i]) << i;
}

TEST(TiffSynthetic, StoredRowsOfATiledFileAreRefused) {
  test::TempDir dir;
  const std::string p = dir.file("tiled.tif");
  write_tiff(p, {8, SAMPLEFORMAT_UINT, 0, 255}, COMPRESSION_NONE, true, 20, 20, 1, 3);
  const TiffReader r(p);
  EXPECT_EQ(r.storage().rows_per_strip, 0);
  std::vector<unsigned char> raw(20);
  EXPECT_THROW(r.read_stored_rows(0, 0, 1, raw.data()), Error);
}

} // namespace
} // namespace frost::io
