// Fuzz target: EER movie files, TIFF container and legacy (headerless) streams, rendered at
// upsampling 1, 2 or 4 and grouped into fractions.
#include "frost/io/eer_reader.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace frost;
  const std::string path = fuzz::scratch_file(data, size, ".eer");
  io::EerOptions options;
  options.upsampling = 1 << (size % 3);
  options.frames_per_fraction = index_t(size % 4);
  options.legacy_width = 64; // headerless files say nothing of their size
  options.legacy_height = 40;
  fuzz::expect_errors_only([&] { fuzz::read_everything(io::EerReader(path, options)); });
  return 0;
}
