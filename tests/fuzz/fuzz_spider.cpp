// Fuzz target: SPIDER images and stacks (.spi/.stk), the class-average format of Xmipp.
#include "frost/io/image_io.hpp"
#include "frost/io/spider.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace frost;
  const std::string path = fuzz::scratch_file(data, size, ".stk");
  fuzz::expect_errors_only([&] { fuzz::read_everything(*io::open_spider(path)); });
  fuzz::expect_errors_only([&] { io::read_info(path); });
  return 0;
}
