// io::StackSource: items by path and index, each file opened once, errors naming the row.
#include <string>
#include <thread>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/stack_source.hpp"
#include "frost/test/support.hpp"

namespace frost::io {
namespace {

TEST(StackSource, ReadsItemsByPathAndIndexAndSharesTheFile) {
  test::TempDir dir;
  Image<float> stack(Shape::image(4, 3, 5));
  for (index_t i = 0; i < stack.size(); ++i) stack[i] = float(i);
  write_image(dir.file("a.mrcs"), stack.cview());
  StackSource source("particles.star");
  EXPECT_EQ(source.file(dir.file("a.mrcs"), 0).get(), source.file(dir.file("a.mrcs"), 7).get());
  std::vector<std::vector<float>> items(5, std::vector<float>(12));
  std::vector<std::thread> readers;
  for (index_t k = 0; k < 5; ++k)
    readers.emplace_back([&, k] { source.read(dir.file("a.mrcs"), k, items[std::size_t(k)].data(), 0, "row"); });
  for (auto& t : readers) t.join();
  for (index_t k = 0; k < 5; ++k)
    for (index_t i = 0; i < 12; ++i) EXPECT_EQ(items[std::size_t(k)][std::size_t(i)], float(k * 12 + i));
}

TEST(StackSource, ErrorsNameTheMetadataRowAndTheRequest) {
  test::TempDir dir;
  write_image(dir.file("b.mrcs"), Image<float>(Shape::image(4, 4, 2)).cview());
  StackSource source("particles.star");
  std::vector<float> out(16);
  try {
    source.read(dir.file("b.mrcs"), 2, out.data(), 4, "particles.star row 5");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("image 3 requested by particles.star row 5 but the file holds 2"),
              std::string::npos) << e.what();
  }
  try {
    source.file(dir.file("missing.mrcs"), 8);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("(image of particles.star row 9)"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace frost::io
