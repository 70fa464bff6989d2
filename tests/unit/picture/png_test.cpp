// PNG encoding (libs/picture png.hpp): small known pictures are decoded with libpng's reader and
// compared sample for sample, the stored colour type and bit depth are checked in the file's
// header, and files appear whole (atomic) or not at all. Builds without libpng skip, except the
// test of the error such builds give.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "frost/core/error.hpp"
#include "frost/picture/png.hpp"
#include "frost/test/png_decode.hpp"
#include "frost/test/support.hpp"

namespace frost::picture {
namespace {

bool exists(const std::string& p) { return access(p.c_str(), F_OK) == 0; }

TEST(Png, GreyPictureDecodesToTheSameSamples) {
  FROST_REQUIRE_PNG();
  Raster r = Raster::grey(7, 3);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 7; ++x) r.at(x, y)[0] = static_cast<std::uint8_t>(x * 37 + y * 90); // wraps: all values differ
  const test::DecodedPng d = test::decode_png(encode_png(r));
  EXPECT_EQ(d.width, 7);
  EXPECT_EQ(d.height, 3);
  EXPECT_EQ(d.colour_type, 0); // grey
  EXPECT_EQ(d.bit_depth, 8);
  ASSERT_EQ(d.channels, 1);
  EXPECT_EQ(d.pixels, r.pixels); // row 0 of the raster is the file's first (top) row
}

TEST(Png, RgbPictureDecodesToTheSameSamples) {
  FROST_REQUIRE_PNG();
  Raster r = Raster::rgb(4, 5, {1, 2, 3});
  r.at(0, 0)[0] = 255;          // red top-left
  r.at(3, 4)[2] = 200;          // blueish bottom-right
  r.at(2, 1)[1] = 128;
  const test::DecodedPng d = test::decode_png(encode_png(r));
  EXPECT_EQ(d.width, 4);
  EXPECT_EQ(d.height, 5);
  EXPECT_EQ(d.colour_type, 2); // RGB
  EXPECT_EQ(d.bit_depth, 8);
  ASSERT_EQ(d.channels, 3);
  EXPECT_EQ(d.pixels, r.pixels);
  EXPECT_EQ(d.at(0, 0)[0], 255);
  EXPECT_EQ(d.at(3, 4)[2], 200);
}

TEST(Png, WriteIsAtomicAndNamesThePathOnFailure) {
  FROST_REQUIRE_PNG();
  test::TempDir dir;
  const Raster r = Raster::grey(16, 9, 77);
  write_png(dir.file("a.png"), r);
  const test::DecodedPng d = test::decode_png_file(dir.file("a.png"));
  EXPECT_EQ(d.width, 16);
  EXPECT_EQ(d.height, 9);
  EXPECT_EQ(d.pixels, r.pixels);
  EXPECT_FALSE(exists(dir.file("a.png.frost-tmp-" + std::to_string(::getpid()))));
  try {
    write_png(dir.file("missing/b.png"), r);
    FAIL() << "no error for a missing folder";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("missing/b.png"), std::string::npos) << e.what();
  }
  // An inconsistent raster is a program error; nothing is written.
  Raster bad = Raster::grey(4, 4);
  bad.pixels.pop_back();
  EXPECT_THROW(write_png(dir.file("bad.png"), bad), Error);
  EXPECT_FALSE(exists(dir.file("bad.png")));
}

TEST(Png, BuildWithoutLibpngGivesAClearUsageError) {
  if (png_supported()) GTEST_SKIP() << "built with libpng: the stand-in is not compiled";
  try {
    write_png("never.png", Raster::grey(2, 2));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("without PNG support"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(exists("never.png"));
}

} // namespace
} // namespace frost::picture
