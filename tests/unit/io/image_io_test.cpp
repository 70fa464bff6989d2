// Format dispatch and the streaming interface shared by all readers.
#include <functional>
#include <thread>

#include "frost/core/error.hpp"
#include "frost/io/eman_hdf_reader.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/tiff_reader.hpp"
#include "frost/test/support.hpp"
#include "io_test_util.hpp"

namespace frost::io {
namespace {

void expect_input_error(const std::function<void()>& f, const std::string& mention) {
  try {
    f();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input) << e.what();
    EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
  }
}

TEST(ImageIo, DispatchReadsStacksVolumesAndSingleImages) {
  test::TempDir dir;
  Image<float> stack(Shape::image(6, 5, 4));
  for (index_t i = 0; i < stack.size(); ++i) stack[i] = float(i);
  write_image(dir.file("s.mrcs"), stack.cview());
  const LoadedImage all = read_stack(dir.file("s.mrcs"));
  EXPECT_EQ(all.image.shape(), stack.shape());
  EXPECT_EQ(all.info.format, FileFormat::Mrc);
  EXPECT_EQ(all.info.count(), 4);
  const LoadedImage second = read_image("2@" + dir.file("s.mrcs"));
  EXPECT_EQ(second.image.shape(), Shape::image(6, 5));
  EXPECT_EQ(second.image[0], 30.f);
  EXPECT_EQ(second.info.count(), 4); // the info describes the file
  EXPECT_EQ(image_count(dir.file("s.mrcs")), 4);
  expect_input_error([&] { read_volume(dir.file("s.mrcs")); }, "not a single volume");

  // The same data saved as .mrc: a volume by default, a stack when asked, or by `:mrcs`.
  write_image(dir.file("v.mrc"), stack.cview(), [] {
    MrcWriteOptions o;
    o.content = Content::Volume;
    return o;
  }());
  EXPECT_EQ(read_volume(dir.file("v.mrc")).image.shape(), Shape::volume(6, 5, 4));
  EXPECT_EQ(read_stack(dir.file("v.mrc")).image.shape(), Shape::image(6, 5, 4));
  EXPECT_EQ(read_info(dir.file("v.mrc") + ":mrcs").content, Content::Stack);
  EXPECT_EQ(read_image("4@" + dir.file("v.mrc")).image[0], 90.f);
}

TEST(ImageIo, UnsupportedExtensionsNameTheFile) {
  expect_input_error([] { read_image("/somewhere/p.dm4"); }, "/somewhere/p.dm4");
  expect_input_error([] { read_stack("/somewhere/noext"); }, "/somewhere/noext");
  expect_input_error([] { open_image_source("3@/somewhere/p.mrcs"); }, "not an image address");
  expect_input_error([] { read_stack("/nonexistent/x.mrcs"); }, "/nonexistent/x.mrcs");
}

TEST(ImageIo, OptionalFormatsSayHowFrostWasBuilt) {
  if (!tiff_supported())
    expect_input_error([] { read_stack("/tmp/movie.tif"); }, "built without TIFF support");
  if (!hdf5_supported())
    expect_input_error([] { read_stack("/tmp/stack.hdf"); }, "built without HDF5 support");
  if (tiff_supported() && hdf5_supported()) GTEST_SKIP() << "built with TIFF and HDF5";
}

TEST(ImageIo, StreamingSourceReadsFramesFromManyThreads) {
  test::TempDir dir;
  Image<float> movie(Shape::image(64, 48, 16));
  for (index_t i = 0; i < movie.size(); ++i) movie[i] = float(i % 65536);
  MrcWriteOptions o;
  o.mode = MrcMode::UInt16;
  write_image(dir.file("movie.mrcs"), movie.cview(), o);
  const auto source = open_image_source(dir.file("movie.mrcs"));
  EXPECT_EQ(source->count(), 16);
  std::vector<Image<float>> got(16);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (index_t f = t; f < 16; f += 4) got[std::size_t(f)] = source->read(f);
    });
  for (auto& th : threads) th.join();
  for (index_t f = 0; f < 16; ++f)
    for (index_t i = 0; i < 64 * 48; ++i) ASSERT_EQ(got[std::size_t(f)][i], movie[f * 64 * 48 + i]);
}

} // namespace
} // namespace frost::io
