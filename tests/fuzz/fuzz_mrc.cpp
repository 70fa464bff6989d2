// Fuzz target: MRC files (header and data) read as the programs read them: as an image/volume
// (extension .mrc), as a stack (.mrcs) and through the header reader alone.
#include "frost/io/image_io.hpp"
#include "frost/io/mrc_reader.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace frost;
  for (const char* ext : {".mrc", ".mrcs"}) {
    const std::string path = fuzz::scratch_file(data, size, ext);
    fuzz::expect_errors_only([&] { io::read_mrc_header(path); });
    fuzz::expect_errors_only([&] { fuzz::read_everything(*io::open_image_source(path)); });
  }
  const std::string path = fuzz::scratch_file(data, size, ".mrc");
  io::ReadOptions stack;
  stack.expect = io::Expect::Stack;
  stack.mode0 = size % 2 ? io::Mode0Sign::Unsigned : io::Mode0Sign::Auto;
  fuzz::expect_errors_only([&] { fuzz::read_everything(io::MrcReader(path, stack)); });
  return 0;
}
