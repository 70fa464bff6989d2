// SPIDER stacks: round trip, header words read back raw, byte-swapped copies, single images and
// the errors for files frost does not read.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <utility>

#include "frost/core/error.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/io/spider.hpp"
#include "frost/test/support.hpp"
#include "io_test_util.hpp"

namespace frost::io {
namespace {

using test::Bytes;

void expect_input_error(const std::function<void()>& f, const std::string& path, const std::string& mention = "") {
  try {
    f();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
  }
}

/// Header word `w` (1-based, as in the SPIDER documentation) of the header starting at `offset`.
float word(const Bytes& b, std::size_t offset, int w) { return test::get<float>(b, offset + 4 * std::size_t(w - 1)); }

void set_word(Bytes& b, std::size_t offset, int w, float v) { test::put<float>(b, offset + 4 * std::size_t(w - 1), v); }

bool same_bits(const float* a, const float* b, index_t n) {
  return std::memcmp(a, b, static_cast<std::size_t>(n) * sizeof(float)) == 0;
}

// 37 samples per row: lenbyt 148, labrec ceil(1024 / 148) = 7, labbyt 1036 (not a multiple of
// 1024, so a reader that assumes 1024-byte headers fails).
constexpr index_t kNsam = 37, kNrow = 23, kCount = 3;
constexpr std::size_t kLabbyt = 7 * 148;
constexpr std::size_t kDataBytes = kNsam * kNrow * 4;

struct Written {
  test::TempDir dir;
  Image<float> stack = test::random_image<float>(Shape::image(kNsam, kNrow, kCount), 20240611);
  std::string path = dir.file("stack.stk");
  Written() { write_spider_stack(path, stack.cview()); }
};

TEST(Spider, RoundTripOfAThreeImageStack) {
  Written w;
  const auto source = open_spider(w.path);
  EXPECT_EQ(source->info().format, FileFormat::Spider);
  EXPECT_EQ(source->info().content, Content::Stack);
  EXPECT_EQ(source->info().shape, Shape::image(kNsam, kNrow, kCount));
  EXPECT_EQ(source->info().sample, SampleType::Float32);
  EXPECT_FALSE(source->info().pixel_size_known());
  const Image<float> all = source->read_all();
  EXPECT_TRUE(same_bits(all.data(), w.stack.data(), w.stack.size()));

  const LoadedImage second = read_image("2@" + w.path);
  EXPECT_EQ(second.image.shape(), Shape::image(kNsam, kNrow));
  EXPECT_EQ(second.info.format, FileFormat::Spider);
  EXPECT_TRUE(same_bits(second.image.data(), w.stack.cview().item(1).data, kNsam * kNrow));
  EXPECT_TRUE(same_bits(read_image("000003@" + w.path).image.data(), w.stack.cview().item(2).data, kNsam * kNrow));
  EXPECT_EQ(image_count(w.path), kCount);
  EXPECT_TRUE(same_bits(read_stack(w.path).image.data(), w.stack.data(), w.stack.size()));

  // Written atomically: nothing but the file itself is left in the directory.
  const auto entries = std::distance(std::filesystem::directory_iterator(w.dir.path()), {});
  EXPECT_EQ(entries, 1);
}

TEST(Spider, HeaderWords) {
  Written w;
  const Bytes b = test::read_bytes(w.path);
  ASSERT_EQ(b.size(), kLabbyt + kCount * (kLabbyt + kDataBytes));

  const auto check_sizes = [&](std::size_t at) {
    EXPECT_EQ(word(b, at, 1), 1.f);               // nslice
    EXPECT_EQ(word(b, at, 2), float(kNrow));      // nrow
    EXPECT_EQ(word(b, at, 3), float(7 + kNrow));  // irec = labrec + nrow
    EXPECT_EQ(word(b, at, 5), 1.f);               // iform: 2-D real
    EXPECT_EQ(word(b, at, 6), 1.f);               // imami: statistics are set
    EXPECT_EQ(word(b, at, 12), float(kNsam));     // nsam
    EXPECT_EQ(word(b, at, 13), 7.f);              // labrec
    EXPECT_EQ(word(b, at, 22), float(kLabbyt));   // labbyt
    EXPECT_EQ(word(b, at, 23), float(4 * kNsam)); // lenbyt
  };
  const auto check_stats = [&](std::size_t at, const float* v, index_t n) {
    double sum = 0;
    for (index_t i = 0; i < n; ++i) sum += v[i];
    const double mean = sum / double(n);
    double ss = 0;
    for (index_t i = 0; i < n; ++i) ss += (v[i] - mean) * (v[i] - mean);
    EXPECT_EQ(word(b, at, 7), *std::max_element(v, v + n)); // fmax
    EXPECT_EQ(word(b, at, 8), *std::min_element(v, v + n)); // fmin
    EXPECT_NEAR(word(b, at, 9), mean, 1e-6);                // av
    EXPECT_NEAR(word(b, at, 10), std::sqrt(ss / double(n)), 1e-6);
  };

  // Overall header: a stack of 3, no image number.
  check_sizes(0);
  EXPECT_GT(word(b, 0, 24), 0.f); // istack
  EXPECT_EQ(word(b, 0, 24), 2.f); // as Xmipp writes it
  EXPECT_EQ(word(b, 0, 26), float(kCount));
  EXPECT_EQ(word(b, 0, 27), 0.f);
  check_stats(0, w.stack.data(), w.stack.size());

  // Image headers: istack 0, imgnum 1..3, statistics of their own image; the data follows.
  for (index_t k = 0; k < kCount; ++k) {
    SCOPED_TRACE(k);
    const std::size_t at = kLabbyt + static_cast<std::size_t>(k) * (kLabbyt + kDataBytes);
    check_sizes(at);
    EXPECT_EQ(word(b, at, 24), 0.f);
    EXPECT_EQ(word(b, at, 27), float(k + 1));
    const float* image = w.stack.cview().item(k).data;
    check_stats(at, image, kNsam * kNrow);
    EXPECT_EQ(std::memcmp(b.data() + at + kLabbyt, image, kDataBytes), 0);
  }
}

TEST(Spider, HeaderSizeFollowsTheRowLength) {
  test::TempDir dir;
  // nsam -> labrec: ceil(1024 / (4 nsam)) records of 4 nsam bytes.
  const std::pair<index_t, float> cases[] = {{2, 128.f}, {100, 3.f}, {256, 1.f}, {300, 1.f}};
  for (const auto& [nsam, labrec] : cases) {
    SCOPED_TRACE(nsam);
    const Image<float> img = test::random_image<float>(Shape::image(nsam, 3, 2), 7);
    const std::string path = dir.file("s" + std::to_string(nsam) + ".spi");
    write_spider_stack(path, img.cview());
    const Bytes b = test::read_bytes(path);
    EXPECT_EQ(word(b, 0, 13), labrec);
    EXPECT_EQ(word(b, 0, 22), labrec * 4.f * float(nsam));
    EXPECT_EQ(word(b, 0, 23), 4.f * float(nsam));
    EXPECT_TRUE(same_bits(open_spider(path)->read_all().data(), img.data(), img.size()));
  }
}

TEST(Spider, ByteSwappedFileReadsTheSame) {
  Written w;
  Bytes b = test::read_bytes(w.path);
  for (std::size_t off = 0; off + 4 <= b.size(); off += 4)
    std::reverse(b.begin() + static_cast<std::ptrdiff_t>(off), b.begin() + static_cast<std::ptrdiff_t>(off + 4));
  const std::string swapped = w.dir.file("swapped.stk");
  test::write_bytes(swapped, b);

  const auto source = open_spider(swapped);
  EXPECT_NE(source->info().big_endian, open_spider(w.path)->info().big_endian);
  EXPECT_EQ(source->info().shape, Shape::image(kNsam, kNrow, kCount));
  EXPECT_TRUE(same_bits(source->read_all().data(), w.stack.data(), w.stack.size()));
  EXPECT_TRUE(same_bits(read_image("3@" + swapped).image.data(), w.stack.cview().item(2).data, kNsam * kNrow));
}

TEST(Spider, SingleImage) {
  // A plain image (istack 0) is a header followed by the data: cut image 2 out of a stack.
  Written w;
  const Bytes b = test::read_bytes(w.path);
  const std::size_t at = kLabbyt + (kLabbyt + kDataBytes);
  Bytes single(b.begin() + static_cast<std::ptrdiff_t>(at),
               b.begin() + static_cast<std::ptrdiff_t>(at + kLabbyt + kDataBytes));
  set_word(single, 0, 27, 0.f);
  const std::string path = w.dir.file("image.xmp");
  test::write_bytes(path, single);

  const LoadedImage img = read_image(path);
  EXPECT_EQ(img.info.content, Content::Image);
  EXPECT_EQ(img.info.count(), 1);
  EXPECT_TRUE(same_bits(img.image.data(), w.stack.cview().item(1).data, kNsam * kNrow));
  EXPECT_TRUE(same_bits(read_image("1@" + path).image.data(), img.image.data(), kNsam * kNrow));
  expect_input_error([&] { read_image("2@" + path); }, path, "image 2 requested");
  // A stack needs an address.
  expect_input_error([&] { read_image(w.path); }, w.path, "holds 3 items");
}

TEST(Spider, TruncatedFilesNameTheFile) {
  Written w;
  Bytes b = test::read_bytes(w.path);
  b.resize(b.size() - 10);
  const std::string cut = w.dir.file("cut.stk");
  test::write_bytes(cut, b);
  expect_input_error([&] { open_spider(cut); }, cut, "truncated");
  expect_input_error([&] { read_image("1@" + cut); }, cut, "truncated");

  b.resize(500); // not even a header
  test::write_bytes(cut, b);
  expect_input_error([&] { open_spider(cut); }, cut, "header");
  expect_input_error([&] { open_spider(w.dir.file("missing.stk")); }, w.dir.file("missing.stk"), "cannot open");
}

TEST(Spider, FilesFrostDoesNotReadNameTheFile) {
  Written w;
  const Bytes good = test::read_bytes(w.path);
  const std::string bad = w.dir.file("bad.spi");

  Bytes b = good;
  set_word(b, 0, 1, 2.f); // nslice 2: a volume
  test::write_bytes(bad, b);
  expect_input_error([&] { open_spider(bad); }, bad, "nslice = 2");

  b = good;
  set_word(b, 0, 5, -12.f); // a Fourier transform
  test::write_bytes(bad, b);
  expect_input_error([&] { open_spider(bad); }, bad, "iform -12");

  b = good;
  set_word(b, 0, 24, -5.f); // indexed stack
  test::write_bytes(bad, b);
  expect_input_error([&] { open_spider(bad); }, bad, "indexed");

  b = good;
  set_word(b, 0, 23, 4.f * float(kNsam + 1)); // lenbyt and labbyt disagree
  test::write_bytes(bad, b);
  expect_input_error([&] { open_spider(bad); }, bad, "not a SPIDER file");

  test::write_bytes(bad, Bytes(4096, 0));
  expect_input_error([&] { read_info(bad); }, bad, "not a SPIDER file");
}

TEST(Spider, ExtraBytesAreIgnored) {
  Written w;
  Bytes b = test::read_bytes(w.path);
  b.resize(b.size() + 12, 0);
  const std::string longer = w.dir.file("longer.stk");
  test::write_bytes(longer, b);
  EXPECT_TRUE(same_bits(open_spider(longer)->read_all().data(), w.stack.data(), w.stack.size()));
}

TEST(Spider, WriteImageDispatch) {
  test::TempDir dir;
  const Image<float> stack = test::random_image<float>(Shape::image(8, 5, 2), 3);
  MrcWriteOptions o;
  o.pixel_size = 1.5; // not stored in SPIDER output
  write_image(dir.file("out.stk"), stack.cview(), o);
  write_image(dir.file("out.dat:spi"), stack.cview());
  for (const std::string name : {"out.stk", "out.dat:spi"}) {
    SCOPED_TRACE(name);
    const LoadedImage back = read_stack(dir.file(name));
    EXPECT_EQ(back.info.format, FileFormat::Spider);
    EXPECT_TRUE(same_bits(back.image.data(), stack.data(), stack.size()));
  }
  // A stack of one is still a stack.
  write_image(dir.file("one.spi"), Image<float>(Shape::image(4, 4)).cview());
  EXPECT_EQ(read_info(dir.file("one.spi")).content, Content::Stack);

  expect_input_error([&] { write_image(dir.file("v.stk"), Image<float>(Shape::volume(4, 4, 4)).cview()); },
                     dir.file("v.stk"), "2-D");
  expect_input_error([&] { write_image(dir.file("a.xmp"), stack.cview()); }, dir.file("a.xmp"), "SPIDER stacks");
  MrcWriteOptions volume;
  volume.content = Content::Volume;
  expect_input_error([&] { write_image(dir.file("w.stk"), stack.cview(), volume); }, dir.file("w.stk"), "2-D");
  EXPECT_FALSE(std::filesystem::exists(dir.file("v.stk")));
}

TEST(Spider, FormatFromExtension) {
  EXPECT_EQ(format_of(parse_image_ref("a.spi")), FileFormat::Spider);
  EXPECT_EQ(format_of(parse_image_ref("3@a.STK")), FileFormat::Spider);
  EXPECT_EQ(format_of(parse_image_ref("a.xmp")), FileFormat::Spider);
  EXPECT_EQ(format_of(parse_image_ref("a.dat:stk")), FileFormat::Spider);
  EXPECT_STREQ(to_string(FileFormat::Spider), "SPIDER");
}

} // namespace
} // namespace frost::io
