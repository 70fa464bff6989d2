// The real files (docs/formats.md#tests) with their exact header facts, and byte-swapped copies of every
// real MRC file in shared/data reading identically.
#include <cmath>

#include "frost/core/error.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/mrc_reader.hpp"
#include "frost/test/support.hpp"
#include "io_test_util.hpp"

namespace frost::io {
namespace {

/// The data's statistics must match those the writer stored in the header: an independent
/// check that decoding (byte order, offsets, permutation) is right.
void expect_stats_match_header(const MrcReader& r) {
  const Image<float> all = r.read_all();
  double lo = all[0], hi = all[0], sum = 0;
  for (float v : all) {
    lo = std::min(lo, double(v));
    hi = std::max(hi, double(v));
    sum += v;
  }
  const double mean = sum / double(all.size());
  EXPECT_FLOAT_EQ(float(lo), r.header().dmin);
  EXPECT_FLOAT_EQ(float(hi), r.header().dmax);
  EXPECT_NEAR(mean, r.header().dmean, 1e-4 * (hi - lo));
}

TEST(MrcRealFiles, Emd3197) {
  FROST_REQUIRE_DATA(path, "mrcfile/EMD-3197.map");
  MrcReader r(path);
  const ImageInfo& i = r.info();
  EXPECT_EQ(i.content, Content::Volume);
  EXPECT_EQ(i.shape, Shape::volume(20, 20, 20));
  EXPECT_NEAR(i.pixel(), 11.4, 1e-5);
  EXPECT_EQ(r.header().nxstart, -2);
  EXPECT_NEAR(i.origin_A[0], -2 * 11.4, 1e-4);
  EXPECT_EQ(r.header().machst[0], 0x44);
  EXPECT_EQ(r.header().machst[1], 0x41);
  EXPECT_FALSE(i.big_endian);
  EXPECT_EQ(i.mrc_mode, 2);
  EXPECT_EQ(r.header().ispg, 1);
  EXPECT_EQ(r.header().label(0), "::::EMDATABANK.org::::EMD-3197::::");
  EXPECT_FALSE(r.permuted());
  expect_stats_match_header(r);
}

TEST(MrcRealFiles, Emd3001IsPermutedWithExtendedHeader) {
  FROST_REQUIRE_DATA(path, "mrcfile/EMD-3001.map");
  MrcReader r(path);
  const MrcHeader& h = r.header();
  EXPECT_EQ(h.nx, 73);
  EXPECT_EQ(h.ny, 43);
  EXPECT_EQ(h.nz, 25);
  EXPECT_EQ(h.mapc, 3);
  EXPECT_EQ(h.mapr, 1);
  EXPECT_EQ(h.maps, 2);
  EXPECT_EQ(h.nsymbt, 160);
  EXPECT_EQ(h.ispg, 4);
  EXPECT_NEAR(h.cellb[1], 94.326, 1e-3);
  EXPECT_EQ(r.data_offset(), 1024 + 160);
  EXPECT_TRUE(r.permuted());
  // Columns run along z, rows along x, sections along y.
  EXPECT_EQ(r.info().shape, Shape::volume(43, 25, 73));
  // cella and mx/my/mz are along X, Y, Z already (mz = 72 matches the 73 sections of z).
  EXPECT_NEAR(r.info().pixel_size[0], 17.93 / 40, 1e-5);
  EXPECT_NEAR(r.info().pixel_size[1], 4.71 / 12, 1e-5);
  EXPECT_NEAR(r.info().pixel_size[2], 33.03 / 72, 1e-5);
  // Start indices follow the permutation: x <- nystart, y <- nzstart, z <- nxstart.
  EXPECT_NEAR(r.info().origin_A[0], -21 * 17.93 / 40, 1e-4);
  EXPECT_NEAR(r.info().origin_A[1], -12 * 4.71 / 12, 1e-4);
  EXPECT_NEAR(r.info().origin_A[2], 0.0, 1e-9);

  const Image<float> v = r.read(0);
  const test::Bytes raw = test::read_bytes(path);
  for (int s : {0, 7, 24})
    for (int row : {0, 20, 42})
      for (int c : {0, 36, 72}) {
        const float file_value = test::get<float>(raw, 1184 + 4 * std::size_t(c + 73 * (row + 43 * s)));
        EXPECT_EQ(v(row, s, c), file_value) << c << "," << row << "," << s;
      }
  expect_stats_match_header(r);
}

TEST(MrcRealFiles, Emd1832) {
  FROST_REQUIRE_DATA(path, "sfftk/emd_1832.map");
  MrcReader r(path);
  EXPECT_EQ(r.info().shape, Shape::volume(64, 64, 64));
  EXPECT_NEAR(r.info().pixel(), 5.7, 1e-5);
  EXPECT_EQ(r.header().nxstart, -32);
  EXPECT_EQ(r.header().nystart, -32);
  EXPECT_EQ(r.header().nzstart, -32);
  EXPECT_NEAR(r.info().origin_A[2], -32 * 5.7, 1e-3);
  expect_stats_match_header(r);
}

TEST(MrcRealFiles, XmippSmallStack) {
  FROST_REQUIRE_DATA(path, "xmipp/smallStack.mrcs");
  MrcReader r(path);
  EXPECT_EQ(r.info().content, Content::Stack);
  EXPECT_EQ(r.info().shape, Shape::image(64, 64, 4));
  EXPECT_EQ(r.header().ispg, 0);
  EXPECT_EQ(r.header().mz, 1);
  EXPECT_EQ(r.header().nlabl, 10);
  // The same stack read as a whole, one image at a time and by N@ address agrees.
  const Image<float> all = r.read_all();
  const Image<float> third = r.read(2);
  const LoadedImage addressed = read_image("3@" + path);
  const LoadedImage padded = read_image("000003@" + path);
  for (index_t i = 0; i < third.size(); ++i) {
    ASSERT_EQ(third[i], all[2 * 64 * 64 + i]);
    ASSERT_EQ(addressed.image[i], third[i]);
    ASSERT_EQ(padded.image[i], third[i]);
  }
  EXPECT_EQ(image_count(path), 4);
  EXPECT_THROW(read_image("5@" + path), Error);
}

TEST(MrcRealFiles, CryodrgnStackLabelledAsVolume) {
  FROST_REQUIRE_DATA(path, "cryodrgn/empiar_10076_7.mrc");
  ReadOptions stack;
  stack.expect = Expect::Stack;
  MrcReader as_stack(path, stack);
  EXPECT_EQ(as_stack.info().content, Content::Stack);
  EXPECT_EQ(as_stack.info().shape, Shape::image(320, 320, 7));
  EXPECT_EQ(as_stack.header().ispg, 1);
  EXPECT_EQ(as_stack.info().pixel(), 0.0); // cella = 0: unknown
  EXPECT_FALSE(as_stack.info().pixel_size_known());
  // Without an expectation a .mrc with nz > 1 is a volume (RELION), unless forced with :mrcs.
  EXPECT_EQ(MrcReader(path).info().content, Content::Volume);
  EXPECT_EQ(MrcReader(path + ":mrcs").info().shape, Shape::image(320, 320, 7));
  EXPECT_EQ(image_count(path), 7);
  EXPECT_EQ(read_image("7@" + path).image.shape(), Shape::image(320, 320));
  expect_stats_match_header(as_stack);
}

TEST(MrcRealFiles, AspireProjections) {
  FROST_REQUIRE_DATA(path, "ASPIRE-Python/rln_proj_65.mrcs");
  MrcReader r(path);
  EXPECT_EQ(r.info().content, Content::Stack);
  EXPECT_EQ(r.info().shape, Shape::image(65, 65, 5));
  EXPECT_EQ(r.header().ispg, 1);
  EXPECT_FALSE(r.info().pixel_size_known());
  expect_stats_match_header(r);
}

TEST(MrcRealFiles, SmallerFiles) {
  FROST_REQUIRE_DATA(single, "xmipp/singleImage.mrc");
  EXPECT_EQ(MrcReader(single).info().content, Content::Image);
  EXPECT_EQ(MrcReader(single).info().shape, Shape::image(3, 3));
  FROST_REQUIRE_DATA(tubulin, "cylindra/beta-tubulin.mrc");
  MrcReader t(tubulin);
  EXPECT_EQ(t.info().shape, Shape::volume(20, 20, 20));
  EXPECT_NEAR(t.info().pixel(), 5.144, 1e-5);
  expect_stats_match_header(t);
  FROST_REQUIRE_DATA(ribosome, "ASPIRE-Python/clean70SRibosome_vol_65p.mrc");
  const LoadedImage v = read_volume(ribosome);
  EXPECT_EQ(v.image.shape(), Shape::volume(65, 65, 65));
  EXPECT_EQ(v.info.pixel(), 0.0);
}

class SwappedCopy : public ::testing::TestWithParam<const char*> {};

TEST_P(SwappedCopy, ReadsIdentically) {
  FROST_REQUIRE_DATA(path, GetParam());
  test::TempDir dir;
  const std::string ext = path.substr(path.rfind('.'));
  const test::Bytes original = test::read_bytes(path);
  const std::string swapped = dir.file("swapped" + ext), unstamped = dir.file("unstamped" + ext);
  test::write_bytes(swapped, test::byte_swapped_mrc(original));
  test::write_bytes(unstamped, test::byte_swapped_mrc(original, /*zero_stamp=*/true));
  const MrcReader a(path);
  for (const std::string& copy : {swapped, unstamped}) {
    const MrcReader b(copy);
    EXPECT_TRUE(b.info().big_endian);
    EXPECT_EQ(b.info().shape, a.info().shape);
    EXPECT_EQ(b.info().content, a.info().content);
    EXPECT_EQ(b.info().pixel_size, a.info().pixel_size);
    EXPECT_EQ(b.info().origin_A, a.info().origin_A);
    EXPECT_EQ(b.header().nsymbt, a.header().nsymbt);
    EXPECT_EQ(b.header().dmean, a.header().dmean);
    EXPECT_EQ(b.header().rms, a.header().rms);
    EXPECT_EQ(b.header().label(0), a.header().label(0));
    const Image<float> da = a.read_all(), db = b.read_all();
    ASSERT_EQ(da.size(), db.size());
    EXPECT_EQ(std::memcmp(da.data(), db.data(), sizeof(float) * std::size_t(da.size())), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(AllRealMrcFiles, SwappedCopy,
                         ::testing::Values("mrcfile/EMD-3197.map", "mrcfile/EMD-3001.map", "sfftk/emd_1832.map",
                                           "xmipp/smallStack.mrcs", "xmipp/singleImage.mrc",
                                           "cryodrgn/empiar_10076_7.mrc", "ASPIRE-Python/rln_proj_65.mrcs",
                                           "ASPIRE-Python/clean70SRibosome_vol_65p.mrc",
                                           "cylindra/beta-tubulin.mrc", "ASPIRE-Python/rln_proj_64_shifted.mrcs"));

} // namespace
} // namespace frost::io
