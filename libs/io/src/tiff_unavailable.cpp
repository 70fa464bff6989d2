// Stand-in for tiff_reader.cpp in builds without libtiff: TIFF files give a clear Input error.
#include "frost/core/error.hpp"
#include "frost/io/tiff_reader.hpp"

namespace frost::io {

struct TiffReader::Impl {
  ImageInfo info;
};

bool tiff_supported() { return false; }

TiffReader::TiffReader(const std::string& path, const ReadOptions&) {
  throw_input_error(path, "frost was built without TIFF support (libtiff not found at configure time)");
}
TiffReader::~TiffReader() = default;
const ImageInfo& TiffReader::info() const { return impl_->info; }
void TiffReader::read(index_t, float*) const {}
bool TiffReader::four_bit_packed() const { return false; }
bool TiffReader::flips_rows() const { return false; }
TiffReader::Storage TiffReader::storage() const { return {}; }
void TiffReader::read_stored_rows(index_t, index_t, index_t, unsigned char*) const {}

} // namespace frost::io
