// Writing: round trips of modes 2 and 12, the header frost writes
// (docs/formats.md#what-frost-writes), streaming appends and atomicity.
#include <cmath>
#include <filesystem>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/mrc_reader.hpp"
#include "frost/io/mrc_writer.hpp"
#include "frost/test/support.hpp"
#include "io_test_util.hpp"

namespace frost::io {
namespace {

Image<float> random_image(Shape s, std::uint32_t seed, float lo = -3.f, float hi = 5.f) {
  Image<float> img(s);
  const auto v = test::random_floats(std::size_t(s.total()), seed, lo, hi);
  std::copy(v.begin(), v.end(), img.begin());
  return img;
}

/// The header statistics computed the plain way: min, max, then the mean, then the rms about it.
struct TwoPass {
  double lo = 1e30, hi = -1e30, mean = 0, rms = 0;
};
TwoPass two_pass(const Image<float>& img) {
  TwoPass t;
  double sum = 0, sq = 0;
  for (float v : img) {
    t.lo = std::min(t.lo, double(v));
    t.hi = std::max(t.hi, double(v));
    sum += v;
  }
  t.mean = sum / double(img.size());
  for (float v : img) sq += (double(v) - t.mean) * (double(v) - t.mean);
  t.rms = std::sqrt(sq / double(img.size()));
  return t;
}

TEST(MrcWriter, Mode2RoundTripIsExactAndHeaderIsMrc2014) {
  test::TempDir dir;
  const Image<float> stack = random_image(Shape::image(31, 17, 5), 3);
  const std::string p = dir.file("out.mrcs");
  MrcWriteOptions o;
  o.pixel_size = 1.25;
  o.label = "frost_test writer";
  write_mrc(p, stack, o);

  MrcReader r(p);
  EXPECT_EQ(r.info().content, Content::Stack);
  EXPECT_EQ(r.info().shape, stack.shape());
  EXPECT_NEAR(r.info().pixel(), 1.25, 1e-6);
  const Image<float> back = r.read_all();
  EXPECT_EQ(std::memcmp(back.data(), stack.data(), sizeof(float) * std::size_t(stack.size())), 0);

  const MrcHeader& h = r.header();
  const test::Bytes raw = test::read_bytes(p);
  EXPECT_EQ(raw.size(), 1024u + 4u * std::size_t(stack.size()));
  EXPECT_EQ(raw[212], 0x44);
  EXPECT_EQ(raw[213], 0x44);
  EXPECT_EQ(raw[214], 0);
  EXPECT_EQ(std::string(raw.begin() + 208, raw.begin() + 212), "MAP ");
  EXPECT_EQ(h.nversion, 20141);
  EXPECT_EQ(h.ispg, 0);
  EXPECT_EQ(h.mz, 1);
  EXPECT_EQ(h.mx, 31);
  EXPECT_NEAR(h.cella[0], 31 * 1.25, 1e-5);
  EXPECT_EQ(h.mapc, 1);
  EXPECT_EQ(h.mapr, 2);
  EXPECT_EQ(h.maps, 3);
  EXPECT_EQ(h.cellb[2], 90.f);
  EXPECT_EQ(h.nlabl, 1);
  EXPECT_EQ(h.label(0), "frost_test writer");
  EXPECT_EQ(h.nsymbt, 0);

  const TwoPass ref = two_pass(stack);
  EXPECT_EQ(h.dmin, float(ref.lo));
  EXPECT_EQ(h.dmax, float(ref.hi));
  EXPECT_NEAR(h.dmean, ref.mean, 1e-5);
  EXPECT_NEAR(h.rms, ref.rms, 1e-5);
}

// A micrograph-sized item (several blocks of 2^20 values, the last one partial) with a large
// mean: the header statistics match a two-pass reference, and are the same bits for 1 and for
// several threads.
TEST(MrcWriter, StatisticsOfALargeItemAreExactAndThreadIndependent) {
  test::TempDir dir;
  const Image<float> img = random_image(Shape::image(1500, 1900), 17, 995.f, 1010.f);
  const TwoPass ref = two_pass(img);
  MrcHeader h[2];
  const int threads[2] = {1, 3};
  for (int k = 0; k < 2; ++k) {
    set_num_threads(threads[k]);
    write_mrc(dir.file("big.mrc"), img.cview());
    h[k] = read_mrc_header(dir.file("big.mrc"));
  }
  set_num_threads(0);
  EXPECT_EQ(h[0].dmin, float(ref.lo));
  EXPECT_EQ(h[0].dmax, float(ref.hi));
  EXPECT_NEAR(h[0].dmean, ref.mean, 1e-7 * ref.mean); // the header holds floats
  EXPECT_NEAR(h[0].rms, ref.rms, 1e-6 * ref.rms);
  EXPECT_EQ(h[0].dmean, h[1].dmean);
  EXPECT_EQ(h[0].rms, h[1].rms);
}

TEST(MrcWriter, Float16RoundTripWithinTwoToTheMinus11) {
  test::TempDir dir;
  const Image<float> vol = random_image(Shape::volume(12, 10, 8), 11, -100.f, 100.f);
  const std::string p = dir.file("half.mrc");
  MrcWriteOptions o;
  o.mode = MrcMode::Float16;
  o.pixel_size = 2;
  write_mrc(p, vol, o);
  MrcReader r(p);
  EXPECT_EQ(r.info().mrc_mode, 12);
  EXPECT_EQ(r.info().content, Content::Volume);
  EXPECT_EQ(r.header().ispg, 1);
  EXPECT_EQ(r.header().mz, 8);
  EXPECT_EQ(test::read_bytes(p).size(), 1024u + 2u * std::size_t(vol.size()));
  const Image<float> back = r.read(0);
  float lo = back[0];
  for (index_t i = 0; i < vol.size(); ++i) {
    lo = std::min(lo, back[i]);
    if (std::fabs(vol[i]) >= std::ldexp(1.0f, -14)) {
      ASSERT_LE(std::fabs(back[i] - vol[i]), std::ldexp(std::fabs(vol[i]), -11)) << i;
    }
  }
  EXPECT_EQ(r.header().dmin, lo); // statistics describe the stored (rounded) values
}

TEST(MrcWriter, IntegerModesStoreIntegersAndRefuseOthers) {
  test::TempDir dir;
  Image<float> counts(Shape::image(5, 3, 2));
  for (index_t i = 0; i < counts.size(); ++i) counts[i] = float(i % 16);
  for (MrcMode m : {MrcMode::Int8, MrcMode::Int16, MrcMode::UInt16, MrcMode::UInt4}) {
    const std::string p = dir.file("m" + std::to_string(int(m)) + ".mrcs");
    MrcWriteOptions o;
    o.mode = m;
    write_mrc(p, counts, o);
    const Image<float> back = MrcReader(p).read_all();
    for (index_t i = 0; i < counts.size(); ++i) ASSERT_EQ(back[i], counts[i]) << int(m);
  }
  EXPECT_EQ(test::read_bytes(dir.file("m101.mrcs")).size(), 1024u + 3u * 3u * 2u); // odd nx: 3 bytes per row
  Image<float> fractional(Shape::image(2, 2));
  fractional[1] = 0.5f;
  MrcWriteOptions o;
  o.mode = MrcMode::UInt16;
  EXPECT_THROW(write_mrc(dir.file("bad.mrc"), fractional, o), Error);
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.mrc")));
}

TEST(MrcWriter, StreamingAppendsFramesAndPatchesTheHeader) {
  test::TempDir dir;
  const std::string p = dir.file("movie.mrcs");
  const Image<float> frames = random_image(Shape::image(16, 12, 6), 5);
  {
    MrcWriter w(p, Shape::image(16, 12));
    for (index_t i = 0; i < 6; ++i) {
      w.append(frames.view().item(i).data);
      EXPECT_FALSE(std::filesystem::exists(p)); // nothing at the final path before commit
    }
    EXPECT_EQ(w.count(), 6);
    w.commit();
  }
  MrcReader r(p);
  EXPECT_EQ(r.info().shape, Shape::image(16, 12, 6));
  EXPECT_EQ(r.header().nz, 6);
  // Any range of frames, as movie alignment streams them.
  std::vector<float> mid(std::size_t(3 * 16 * 12));
  r.read_range(2, 3, mid.data());
  for (std::size_t i = 0; i < mid.size(); ++i) ASSERT_EQ(mid[i], frames[index_t(2 * 16 * 12 + i)]);
  const Image<float> f5 = r.read(5);
  for (index_t i = 0; i < f5.size(); ++i) ASSERT_EQ(f5[i], frames.view().item(5)[i]);
}

TEST(MrcWriter, ContentRulesOfSection2_3) {
  test::TempDir dir;
  const Image<float> img = random_image(Shape::image(4, 4), 1);
  const Image<float> vols = random_image(Shape::volume(4, 4, 3, 2), 2);
  write_mrc(dir.file("micrograph.mrc"), img);
  write_mrc(dir.file("one.mrcs"), img);
  write_mrc(dir.file("vols.mrcs"), vols);
  MrcReader micrograph(dir.file("micrograph.mrc")), one(dir.file("one.mrcs")), vs(dir.file("vols.mrcs"));
  EXPECT_EQ(micrograph.info().content, Content::Image);
  EXPECT_EQ(micrograph.header().ispg, 0);
  EXPECT_EQ(micrograph.header().nz, 1);
  EXPECT_EQ(one.info().content, Content::Stack);
  EXPECT_EQ(vs.header().ispg, 401);
  EXPECT_EQ(vs.header().mz, 3);
  EXPECT_EQ(vs.info().shape, Shape::volume(4, 4, 3, 2));
  EXPECT_EQ(vs.info().pixel(), 0.0);
  EXPECT_EQ(vs.header().cella[0], 0.f);

  // Slices streamed into one volume.
  MrcWriteOptions slices;
  slices.content = Content::Volume;
  MrcWriter w(dir.file("slices.mrc"), Shape::image(4, 4), slices);
  for (int z = 0; z < 5; ++z) w.append(img.data());
  w.commit();
  MrcReader v(dir.file("slices.mrc"));
  EXPECT_EQ(v.header().ispg, 1);
  EXPECT_EQ(v.header().mz, 5);
  EXPECT_EQ(v.info().shape, Shape::volume(4, 4, 5));
}

TEST(MrcWriter, OriginAndStartAreWrittenAsGiven) {
  test::TempDir dir;
  MrcWriteOptions o;
  o.pixel_size = 2;
  o.start = {-4, -4, -4};
  write_mrc(dir.file("c.mrc"), random_image(Shape::volume(8, 8, 8), 9), o);
  MrcReader r(dir.file("c.mrc"));
  EXPECT_EQ(r.header().nxstart, -4);
  EXPECT_EQ(r.info().origin_A[0], -8.0);
  o.origin_A = {1.5f, 2.5f, 3.5f};
  write_mrc(dir.file("o.mrc"), random_image(Shape::volume(8, 8, 8), 9), o);
  EXPECT_EQ(MrcReader(dir.file("o.mrc")).info().origin_A[1], 2.5);
}

TEST(MrcWriter, FailuresLeaveNothingBehind) {
  test::TempDir dir;
  {
    MrcWriter w(dir.file("never.mrcs"), Shape::image(4, 4));
    EXPECT_THROW(w.commit(), Error); // no image written
  }
  {
    MrcWriter w(dir.file("abandoned.mrcs"), Shape::image(4, 4));
    Image<float> img(Shape::image(4, 4));
    w.append(img.data());
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 0);
  EXPECT_THROW(write_image(dir.file("x.tif"), Image<float>(Shape::image(2, 2)).cview()), Error);
}

} // namespace
} // namespace frost::io
