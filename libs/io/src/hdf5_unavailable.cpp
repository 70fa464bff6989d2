// Stand-in for eman_hdf_reader.cpp in builds without HDF5: .hdf files give a clear Input error.
#include "frost/core/error.hpp"
#include "frost/io/eman_hdf_reader.hpp"

namespace frost::io {

struct EmanHdfReader::Impl {
  ImageInfo info;
};

bool hdf5_supported() { return false; }

EmanHdfReader::EmanHdfReader(const std::string& path) {
  throw_input_error(path, "frost was built without HDF5 support (HDF5 C library not found at configure time)");
}
EmanHdfReader::~EmanHdfReader() = default;
const ImageInfo& EmanHdfReader::info() const { return impl_->info; }
void EmanHdfReader::read(index_t, float*) const {}

} // namespace frost::io
