// Fuzz target: TIFF movies and micrographs (libtiff container, frost's sample conversion,
// IMOD 4-bit packing, row flip).
#include "frost/io/tiff_reader.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace frost;
  const std::string path = fuzz::scratch_file(data, size, ".tif");
  io::ReadOptions options;
  options.tiff_flip_y = size % 2 == 0;
  options.tiff_4bit = size % 3 == 0 ? io::Switch::Yes : io::Switch::Auto;
  fuzz::expect_errors_only([&] { fuzz::read_everything(io::TiffReader(path, options)); });
  return 0;
}
