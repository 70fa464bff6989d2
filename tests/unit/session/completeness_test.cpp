// The structure check of movie files: every proper prefix of a whole MRC, TIFF or BigTIFF
// movie is reported truncated, the whole file complete (docs/session.md#completeness).
#include <gtest/gtest.h>
#include <tiffio.h>
#include <unistd.h>

#include <fstream>
#include <vector>

#include "frost/io/mrc_header.hpp"
#include "frost/session/completeness.hpp"
#include "frost/test/files.hpp"
#include "frost/test/support.hpp"

namespace frost::session {
namespace {

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// An MRC movie of 5 float frames of 8 x 6 with a 16-byte extended header.
std::string mrc_movie_bytes() {
  io::MrcHeader h;
  h.nx = 8;
  h.ny = 6;
  h.nz = 5;
  h.mode = 2;
  h.nsymbt = 16;
  const auto head = io::serialize_mrc_header(h);
  std::string bytes(head.begin(), head.end());
  bytes.append(16, 'x');
  bytes.append(8 * 6 * 5 * 4, '\1');
  return bytes;
}

/// A 3-frame 8-bit movie written by libtiff (two strips per frame); `mode` "w" or "w8" (BigTIFF).
void write_tiff_movie(const std::string& path, const char* mode) {
  TIFF* t = TIFFOpen(path.c_str(), mode);
  ASSERT_NE(t, nullptr);
  std::vector<unsigned char> row(16);
  for (int frame = 0; frame < 3; ++frame) {
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, 16);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, 8);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 8);
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 4);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    for (int y = 0; y < 8; ++y) {
      for (int x = 0; x < 16; ++x) row[x] = static_cast<unsigned char>(frame * 40 + x + y);
      ASSERT_EQ(TIFFWriteScanline(t, row.data(), static_cast<std::uint32_t>(y), 0), 1);
    }
    ASSERT_EQ(TIFFWriteDirectory(t), 1);
  }
  TIFFClose(t);
}

/// Every prefix of `whole` is complete exactly when it holds what the structure needs.
void expect_prefixes_truncated(const test::TempDir& dir, const std::string& whole, const std::string& name,
                               std::int64_t frames) {
  const std::string path = dir.file(name);
  write_bytes(path, whole);
  const CompletenessResult full = check_movie_structure(path);
  ASSERT_EQ(full.status, Completeness::Complete) << full.reason;
  EXPECT_EQ(full.frames, frames);
  ASSERT_GT(full.expected_bytes, static_cast<std::int64_t>(whole.size()) - 8);
  // Cut from the end down (truncate(2) on one file), every byte near both ends and every 13th
  // byte between: 13 is prime to every field width, so cuts land at every offset within fields.
  for (std::size_t len = whole.size(); len-- > 0;) {
    if (len >= 64 && len + 64 < whole.size() && len % 13 != 0) continue;
    ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(len)), 0);
    const CompletenessResult r = check_movie_structure(path);
    if (static_cast<std::int64_t>(len) >= full.expected_bytes) {
      EXPECT_EQ(r.status, Completeness::Complete) << name << " cut at " << len << ": " << r.reason;
    } else {
      ASSERT_EQ(r.status, Completeness::Truncated) << name << " cut at " << len << ": " << r.reason;
      EXPECT_EQ(r.reason.rfind("truncated: ", 0), 0u) << r.reason;
    }
  }
}

TEST(SessionCompleteness, MrcPrefixesAreTruncatedWithTheHeaderPromise) {
  test::TempDir dir;
  const std::string whole = mrc_movie_bytes();
  expect_prefixes_truncated(dir, whole, "movie.mrc", 5);
  write_bytes(dir.file("cut.mrcs"), whole.substr(0, 1024 + 16 + 2 * 8 * 6 * 4 + 10));
  const CompletenessResult r = check_movie_structure(dir.file("cut.mrcs"));
  EXPECT_EQ(r.status, Completeness::Truncated);
  EXPECT_EQ(r.expected_bytes, static_cast<std::int64_t>(whole.size()));
  EXPECT_NE(r.reason.find("promises 5 frames"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("2 whole frames"), std::string::npos) << r.reason;
}

TEST(SessionCompleteness, MrcWithGarbageHeaderIsInvalid) {
  test::TempDir dir;
  write_bytes(dir.file("junk.mrc"), std::string(4096, '\xff'));
  EXPECT_EQ(check_movie_structure(dir.file("junk.mrc")).status, Completeness::Invalid);
}

TEST(SessionCompleteness, TiffPrefixesAreTruncated) {
  test::TempDir dir;
  write_tiff_movie(dir.file("source.tiff"), "w");
  expect_prefixes_truncated(dir, test::slurp(dir.file("source.tiff")), "movie.tiff", 3);
}

TEST(SessionCompleteness, BigTiffPrefixesAreTruncated) {
  test::TempDir dir;
  write_tiff_movie(dir.file("source.tif"), "w8");
  expect_prefixes_truncated(dir, test::slurp(dir.file("source.tif")), "movie.tif", 3);
}

TEST(SessionCompleteness, EerIsCheckedAsTiff) {
  test::TempDir dir;
  write_tiff_movie(dir.file("source.tiff"), "w");
  const std::string whole = test::slurp(dir.file("source.tiff"));
  write_bytes(dir.file("movie.eer"), whole);
  EXPECT_EQ(check_movie_structure(dir.file("movie.eer")).frames, 3);
  write_bytes(dir.file("movie.eer"), whole.substr(0, whole.size() / 2));
  EXPECT_EQ(check_movie_structure(dir.file("movie.eer")).status, Completeness::Truncated);
  write_bytes(dir.file("not.eer"), "PK\3\4 a zip, not a TIFF");
  EXPECT_EQ(check_movie_structure(dir.file("not.eer")).status, Completeness::Invalid);
}

TEST(SessionCompleteness, TiffDirectoryLoopIsInvalid) {
  test::TempDir dir;
  write_tiff_movie(dir.file("source.tiff"), "w");
  std::string bytes = test::slurp(dir.file("source.tiff"));
  // Point the last directory's next-offset back at the first directory.
  const std::uint32_t first = static_cast<unsigned char>(bytes[4]) | static_cast<unsigned char>(bytes[5]) << 8 |
                              static_cast<unsigned char>(bytes[6]) << 16 |
                              static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[7])) << 24;
  std::uint32_t ifd = first, last = first;
  while (ifd != 0) {
    last = ifd;
    const unsigned n = static_cast<unsigned char>(bytes[ifd]) | static_cast<unsigned char>(bytes[ifd + 1]) << 8;
    const std::size_t at = ifd + 2 + n * 12;
    ifd = static_cast<unsigned char>(bytes[at]) | static_cast<unsigned char>(bytes[at + 1]) << 8 |
          static_cast<unsigned char>(bytes[at + 2]) << 16 |
          static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 3])) << 24;
  }
  const unsigned n = static_cast<unsigned char>(bytes[last]) | static_cast<unsigned char>(bytes[last + 1]) << 8;
  for (int b = 0; b < 4; ++b) bytes[last + 2 + n * 12 + b] = static_cast<char>((first >> (8 * b)) & 0xff);
  write_bytes(dir.file("loop.tiff"), bytes);
  const CompletenessResult r = check_movie_structure(dir.file("loop.tiff"));
  EXPECT_EQ(r.status, Completeness::Invalid);
  EXPECT_NE(r.reason.find("loops"), std::string::npos) << r.reason;
}

TEST(SessionCompleteness, RealTiffFromTheSharedDataIsComplete) {
  const std::string path = test::data_file("xmipp/KLH.tif");
  if (path.empty()) GTEST_SKIP() << "xmipp/KLH.tif not in the shared test data";
  const CompletenessResult r = check_movie_structure(path);
  EXPECT_EQ(r.status, Completeness::Complete) << r.reason;
  EXPECT_GE(r.frames, 1);
}

} // namespace
} // namespace frost::session
