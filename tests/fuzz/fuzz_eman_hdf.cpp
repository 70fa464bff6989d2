// Fuzz target: EMAN2 HDF5 image stacks (/MDF/images/<i>/image), through the HDF5 library.
#include "frost/io/eman_hdf_reader.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace frost;
  const std::string path = fuzz::scratch_file(data, size, ".hdf");
  fuzz::expect_errors_only([&] { fuzz::read_everything(io::EmanHdfReader(path)); });
  return 0;
}
