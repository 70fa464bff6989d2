// Synthetic MRC files built byte by byte: every readable mode, the refused ones, and the
// structural errors (truncation, bad axes, stacks vs volumes).
#include <cmath>
#include <functional>

#include "frost/core/error.hpp"
#include "frost/io/float16.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/mrc_reader.hpp"
#include "frost/test/support.hpp"
#include "io_test_util.hpp"

namespace frost::io {
namespace {

using test::Bytes;

template <class T>
void append(Bytes& b, T v, bool big_endian = false) {
  unsigned char raw[sizeof(T)];
  std::memcpy(raw, &v, sizeof(T));
  if (big_endian) std::reverse(raw, raw + sizeof(T));
  b.insert(b.end(), raw, raw + sizeof(T));
}

std::string write_file(const test::TempDir& dir, const std::string& name, const Bytes& b) {
  const std::string p = dir.file(name);
  test::write_bytes(p, b);
  return p;
}

void expect_input_error_mentioning(const std::function<void()>& f, const std::string& a, const std::string& b = "") {
  try {
    f();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input) << e.what();
    EXPECT_NE(std::string(e.what()).find(a), std::string::npos) << e.what();
    if (!b.empty()) {
      EXPECT_NE(std::string(e.what()).find(b), std::string::npos) << e.what();
    }
  }
}

TEST(MrcModes, Mode0IsSignedUnlessImodSaysUnsigned) {
  test::TempDir dir;
  Bytes b = test::mrc_header(4, 2, 1, 0);
  const unsigned char data[8] = {0, 1, 127, 128, 200, 255, 5, 130};
  b.insert(b.end(), data, data + 8);
  const std::string plain = write_file(dir, "plain.mrc", b);
  const Image<float> s = MrcReader(plain).read(0);
  EXPECT_EQ(s[3], -128.f);
  EXPECT_EQ(s[5], -1.f);
  EXPECT_EQ(MrcReader(plain).info().sample, SampleType::Int8);

  test::put<std::int32_t>(b, 152, kImodStamp);
  const std::string imod_unsigned = write_file(dir, "imod_u.mrc", b);
  MrcReader u(imod_unsigned);
  EXPECT_TRUE(u.mode0_unsigned());
  EXPECT_EQ(u.info().sample, SampleType::UInt8);
  const Image<float> uv = u.read(0);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(uv[i], float(data[i]));

  test::put<std::int32_t>(b, 156, 1); // IMOD signed flag
  const std::string imod_signed = write_file(dir, "imod_s.mrc", b);
  EXPECT_FALSE(MrcReader(imod_signed).mode0_unsigned());
  ReadOptions force;
  force.mode0 = Mode0Sign::Unsigned;
  EXPECT_EQ(MrcReader(imod_signed, force).read(0)[3], 128.f);
  force.mode0 = Mode0Sign::Signed;
  EXPECT_EQ(MrcReader(imod_unsigned, force).read(0)[3], -128.f);
}

TEST(MrcModes, Int16UInt16AndFloat16InBothByteOrders) {
  test::TempDir dir;
  const std::int16_t i16[6] = {-32768, -1, 0, 1, 1234, 32767};
  const std::uint16_t u16[6] = {0, 1, 255, 256, 40000, 65535};
  const std::uint16_t f16[6] = {0x3c00, 0xc000, 0x0001, 0x03ff, 0x7bff, 0x8000};
  for (bool big : {false, true}) {
    Bytes m1 = test::mrc_header(3, 2, 1, 1, big), m6 = test::mrc_header(3, 2, 1, 6, big),
          m12 = test::mrc_header(3, 2, 1, 12, big);
    for (int i = 0; i < 6; ++i) {
      append(m1, i16[i], big);
      append(m6, u16[i], big);
      append(m12, f16[i], big);
    }
    const std::string tag = big ? "big" : "little";
    const Image<float> a = MrcReader(write_file(dir, tag + "1.mrc", m1)).read(0);
    const Image<float> b = MrcReader(write_file(dir, tag + "6.mrc", m6)).read(0);
    const Image<float> c = MrcReader(write_file(dir, tag + "12.mrc", m12)).read(0);
    for (int i = 0; i < 6; ++i) {
      EXPECT_EQ(a[i], float(i16[i])) << tag;
      EXPECT_EQ(b[i], float(u16[i])) << tag;
      EXPECT_EQ(c[i], half_to_float(f16[i])) << tag;
    }
    EXPECT_EQ(c[2], std::ldexp(1.0f, -24)); // subnormal, exactly
  }
}

/// Mode 101 reference: pixel x of a row is the low nibble of byte x/2 when x is even, the high
/// nibble when odd; rows start on a byte boundary.
void check_mode101(index_t nx, index_t ny, index_t nz) {
  test::TempDir dir;
  const index_t row_bytes = (nx + 1) / 2;
  Bytes b = test::mrc_header(std::int32_t(nx), std::int32_t(ny), std::int32_t(nz), 101);
  std::vector<int> expected;
  std::uint32_t state = 12345;
  for (index_t r = 0; r < ny * nz; ++r) {
    std::vector<unsigned char> row(static_cast<std::size_t>(row_bytes), 0);
    for (index_t x = 0; x < nx; ++x) {
      state = state * 1664525u + 1013904223u;
      const int v = int(state >> 28);
      expected.push_back(v);
      row[std::size_t(x / 2)] |= static_cast<unsigned char>(x % 2 == 0 ? v : v << 4);
    }
    b.insert(b.end(), row.begin(), row.end());
  }
  ReadOptions stack;
  stack.expect = Expect::Stack;
  MrcReader r(write_file(dir, "m101.mrc", b), stack);
  EXPECT_EQ(r.info().sample, SampleType::UInt4);
  EXPECT_EQ(r.item_bytes(), row_bytes * ny);
  const Image<float> all = r.read_all();
  ASSERT_EQ(all.size(), index_t(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(all[index_t(i)], float(expected[i])) << i;
  // One frame in the middle on its own (offset arithmetic with byte-aligned rows).
  const Image<float> last = r.read(nz - 1);
  for (index_t i = 0; i < nx * ny; ++i) ASSERT_EQ(last[i], float(expected[std::size_t((nz - 1) * nx * ny + i)]));
}

TEST(MrcModes, Mode101EvenWidth) { check_mode101(8, 3, 4); }
TEST(MrcModes, Mode101OddWidthHasByteAlignedRows) { check_mode101(7, 5, 3); }

TEST(MrcModes, ComplexModesAreRefusedClearly) {
  test::TempDir dir;
  for (int mode : {3, 4, 16}) {
    Bytes b = test::mrc_header(2, 2, 1, mode);
    b.resize(1024 + 64, 0);
    const std::string p = write_file(dir, "m" + std::to_string(mode) + ".mrc", b);
    expect_input_error_mentioning([&] { MrcReader r(p); }, p, "mode " + std::to_string(mode));
  }
}

TEST(MrcStructure, TruncatedFileNamesFileAndSizes) {
  test::TempDir dir;
  Bytes b = test::mrc_header(10, 10, 3, 2);
  b.resize(1024 + 4 * 100 * 3 - 4, 0);
  const std::string p = write_file(dir, "short.mrcs", b);
  expect_input_error_mentioning([&] { MrcReader r(p); }, p, std::to_string(1024 + 1200) + " bytes");
  Bytes tiny(100, 0);
  const std::string t = write_file(dir, "tiny.mrc", tiny);
  expect_input_error_mentioning([&] { MrcReader r(t); }, t, "1024");
  expect_input_error_mentioning([&] { MrcReader r(dir.file("absent.mrc")); }, dir.file("absent.mrc"));
}

TEST(MrcStructure, LongerFileIsAcceptedAndExtendedHeaderSkipped) {
  test::TempDir dir;
  Bytes b = test::mrc_header(2, 2, 1, 2);
  test::put<std::int32_t>(b, 92, 80);
  b.resize(1024 + 80, 'X');
  for (float v : {1.f, 2.f, 3.f, 4.f}) append(b, v);
  b.resize(b.size() + 10, 0); // padding some writers leave
  MrcReader r(write_file(dir, "padded.mrc", b));
  EXPECT_EQ(r.data_offset(), 1104);
  const Image<float> img = r.read(0);
  EXPECT_EQ(img[0], 1.f);
  EXPECT_EQ(img[3], 4.f);
}

TEST(MrcStructure, VolumeStackFromIspg401) {
  test::TempDir dir;
  Bytes b = test::mrc_header(2, 2, 6, 2, false, 401);
  test::put<std::int32_t>(b, 36, 3); // mz = depth of each volume
  for (int i = 0; i < 24; ++i) append(b, float(i));
  for (const char* name : {"vs.mrc", "vs.mrcs"}) {
    MrcReader r(write_file(dir, name, b));
    EXPECT_EQ(r.info().content, Content::VolumeStack) << name;
    EXPECT_EQ(r.info().shape, Shape::volume(2, 2, 3, 2));
    EXPECT_EQ(r.read(1)[0], 12.f);
  }
  // Forcing :mrc reads the whole file as one volume.
  EXPECT_EQ(MrcReader(dir.file("vs.mrc") + ":mrc").info().shape, Shape::volume(2, 2, 6));
}

TEST(MrcStructure, PermutedStacksAreRefused) {
  test::TempDir dir;
  Bytes b = test::mrc_header(2, 3, 4, 2);
  test::put<std::int32_t>(b, 64, 2);
  test::put<std::int32_t>(b, 68, 1);
  for (int i = 0; i < 24; ++i) append(b, float(i));
  const std::string p = write_file(dir, "perm.mrcs", b);
  expect_input_error_mentioning([&] { MrcReader r(p); }, p, "volumes only");
  // The same data as a volume is permuted: columns are y, rows are x.
  const std::string v = write_file(dir, "perm.mrc", b);
  MrcReader r(v);
  EXPECT_EQ(r.info().shape, Shape::volume(3, 2, 4));
  const Image<float> img = r.read(0);
  EXPECT_EQ(img(2, 1, 3), float(1 + 2 * (2 + 3 * 3))); // file column 1, row 2, section 3
  test::put<std::int32_t>(b, 72, 2); // (2,1,2) is not a permutation
  const std::string bad = write_file(dir, "bad.mrc", b);
  expect_input_error_mentioning([&] { MrcReader r2(bad); }, bad, "axis order");
}

TEST(MrcStructure, AddressOutOfRangeIsAnError) {
  test::TempDir dir;
  Bytes b = test::mrc_header(2, 2, 3, 2);
  for (int i = 0; i < 12; ++i) append(b, float(i));
  const std::string p = write_file(dir, "s.mrcs", b);
  EXPECT_EQ(read_image("3@" + p).image[0], 8.f);
  expect_input_error_mentioning([&] { read_image("4@" + p); }, p, "holds 3");
  expect_input_error_mentioning([&] { read_image("0@" + p); }, p);
  expect_input_error_mentioning([&] { read_image(p); }, p, "N@");
  MrcReader r(p);
  EXPECT_THROW(r.read(-1), Error);
  EXPECT_THROW(r.read_range(2, 2), Error);
}

} // namespace
} // namespace frost::io
