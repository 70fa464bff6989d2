// Header parsing, byte-order detection (docs/formats.md#header-and-byte-order) and image address syntax
// (docs/formats.md#image-addresses-and-file-types).
#include "frost/core/error.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/io/mrc_header.hpp"
#include "frost/test/support.hpp"
#include "io_test_util.hpp"

namespace frost::io {
namespace {

using test::Bytes;

TEST(MrcHeader, ParsesEveryFieldAtItsOffset) {
  Bytes b = test::mrc_header(7, 5, 3, 2);
  test::put<std::int32_t>(b, 16, -3);
  test::put<float>(b, 40, 14.f);
  test::put<std::int32_t>(b, 92, 160);
  test::put<std::int32_t>(b, 152, kImodStamp);
  test::put<std::int32_t>(b, 156, 1);
  test::put<float>(b, 196, 12.5f);
  test::put<float>(b, 216, 0.75f);
  test::put<std::int32_t>(b, 220, 1);
  std::memcpy(b.data() + 224, "hello", 5);
  const MrcHeader h = parse_mrc_header(b.data(), "x.mrc");
  EXPECT_EQ(h.endian, Endian::Little);
  EXPECT_EQ(h.nx, 7);
  EXPECT_EQ(h.ny, 5);
  EXPECT_EQ(h.nz, 3);
  EXPECT_EQ(h.mode, 2);
  EXPECT_EQ(h.nxstart, -3);
  EXPECT_EQ(h.mx, 7);
  EXPECT_EQ(h.cella[0], 14.f);
  EXPECT_EQ(h.cellb[1], 90.f);
  EXPECT_EQ(h.mapc, 1);
  EXPECT_EQ(h.maps, 3);
  EXPECT_EQ(h.nsymbt, 160);
  EXPECT_EQ(h.nversion, 20141);
  EXPECT_EQ(h.imod_stamp, kImodStamp);
  EXPECT_EQ(h.imod_flags, 1);
  EXPECT_EQ(h.origin[0], 12.5f);
  EXPECT_TRUE(h.has_map_tag());
  EXPECT_EQ(h.rms, 0.75f);
  EXPECT_EQ(h.label(0), "hello");
  EXPECT_EQ(h.label(1), "");
}

TEST(MrcHeader, SerializeThenParseIsTheIdentityAndStampsLittleEndian) {
  Bytes b = test::mrc_header(9, 8, 1, 12);
  test::put<std::int32_t>(b, 24, 4);
  test::put<float>(b, 84, -1.5f);
  MrcHeader h = parse_mrc_header(b.data(), "x");
  h.set_label(0, "frost test");
  const auto out = serialize_mrc_header(h);
  EXPECT_EQ(out[212], 0x44);
  EXPECT_EQ(out[213], 0x44);
  const MrcHeader back = parse_mrc_header(out.data(), "x");
  EXPECT_EQ(back.nx, 9);
  EXPECT_EQ(back.mode, 12);
  EXPECT_EQ(back.nzstart, 4);
  EXPECT_EQ(back.dmean, -1.5f);
  EXPECT_EQ(back.label(0), "frost test");
  EXPECT_EQ(std::memcmp(out.data(), b.data(), 212), 0);
}

TEST(MrcEndian, StampDecidesAndHeuristicCoversZeroStamps) {
  const Bytes big = test::mrc_header(100, 80, 3, 1, /*big_endian=*/true);
  EXPECT_EQ(detect_mrc_endian(big.data(), "b"), Endian::Big);
  Bytes unstamped = big;
  unstamped[212] = unstamped[213] = 0;
  EXPECT_EQ(detect_mrc_endian(unstamped.data(), "b"), Endian::Big);
  const MrcHeader h = parse_mrc_header(unstamped.data(), "b");
  EXPECT_EQ(h.nx, 100);
  EXPECT_EQ(h.ny, 80);
  EXPECT_EQ(h.mode, 1);
  Bytes little = test::mrc_header(100, 80, 3, 1);
  little[212] = little[213] = 0;
  EXPECT_EQ(detect_mrc_endian(little.data(), "l"), Endian::Little);
  // A stamp contradicted by the header loses to the header (with a warning).
  Bytes wrong = big;
  wrong[212] = wrong[213] = 0x44;
  EXPECT_EQ(detect_mrc_endian(wrong.data(), "w"), Endian::Big);
}

TEST(MrcEndian, GarbageIsAnInputErrorNamingTheFile) {
  Bytes junk(1024, 0xff);
  try {
    detect_mrc_endian(junk.data(), "/data/junk.mrc");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("/data/junk.mrc"), std::string::npos);
  }
}

TEST(ImageRef, SplitsIndexPathAndForcedType) {
  ImageRef r = parse_image_ref("3@stack.mrcs");
  EXPECT_EQ(r.index, 2);
  EXPECT_EQ(r.path, "stack.mrcs");
  r = parse_image_ref("000012@Particles/p.mrcs");
  EXPECT_EQ(r.index, 11);
  EXPECT_EQ(r.path, "Particles/p.mrcs");
  r = parse_image_ref("movie.mrc:mrcs");
  EXPECT_FALSE(r.has_index());
  EXPECT_EQ(r.path, "movie.mrc");
  EXPECT_EQ(r.type, "mrcs");
  r = parse_image_ref("2@vol.mrcs:MRC");
  EXPECT_EQ(r.index, 1);
  EXPECT_EQ(r.type, "mrc");
  r = parse_image_ref("dir:with:colons/a.mrc"); // not a type: left in the name
  EXPECT_EQ(r.path, "dir:with:colons/a.mrc");
  r = parse_image_ref("me@host.mrc"); // not a number: part of the name
  EXPECT_EQ(r.path, "me@host.mrc");
  EXPECT_FALSE(r.has_index());
  EXPECT_THROW(parse_image_ref("0@stack.mrcs"), Error);
  EXPECT_EQ(make_image_address(0, "a.mrcs"), "000001@a.mrcs");
}

TEST(ImageRef, FormatFromExtension) {
  EXPECT_EQ(format_of(parse_image_ref("a.MRC")), FileFormat::Mrc);
  EXPECT_EQ(format_of(parse_image_ref("a.map")), FileFormat::Mrc);
  EXPECT_EQ(format_of(parse_image_ref("a.st")), FileFormat::Mrc);
  EXPECT_EQ(format_of(parse_image_ref("a.mrcs")), FileFormat::Mrc);
  EXPECT_EQ(format_of(parse_image_ref("a.tiff")), FileFormat::Tiff);
  EXPECT_EQ(format_of(parse_image_ref("gain.gain")), FileFormat::Tiff);
  EXPECT_EQ(format_of(parse_image_ref("a.hdf")), FileFormat::EmanHdf);
  EXPECT_EQ(format_of(parse_image_ref("a.h5")), FileFormat::EmanHdf);
  EXPECT_EQ(format_of(parse_image_ref("a.dat:mrc")), FileFormat::Mrc);
  try {
    format_of(parse_image_ref("/x/particles.dm4"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("/x/particles.dm4"), std::string::npos);
  }
}

TEST(ImageRef, StemAndExtensionOfTheLastComponent) {
  EXPECT_EQ(file_stem("a/b/m.mrcs"), "m");
  EXPECT_EQ(file_stem("m.tar.gz"), "m.tar");
  EXPECT_EQ(file_stem("dir.d/movie"), "movie");
  EXPECT_EQ(file_stem(".hidden"), ".hidden");
  EXPECT_EQ(file_extension("dir.d/movie"), "");
  EXPECT_EQ(file_extension("a/M.MRCS"), "mrcs");
}

} // namespace
} // namespace frost::io
