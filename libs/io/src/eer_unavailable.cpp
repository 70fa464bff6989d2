// Stand-in for eer_reader.cpp in builds without libtiff: EER files give a clear Input error.
#include "frost/core/error.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/io/eer_writer.hpp"

namespace frost::io {

struct EerReader::Impl {
  ImageInfo info;
  EerEncoding encoding;
  std::string metadata;
};

bool eer_supported() { return false; }

EerReader::EerReader(const std::string& path, const EerOptions&) {
  throw_input_error(path, "frost was built without EER support (it needs libtiff, not found at configure time)");
}
EerReader::~EerReader() = default;
const ImageInfo& EerReader::info() const { return impl_->info; }
void EerReader::read(index_t, float*) const {}
index_t EerReader::raw_frames() const { return 0; }
index_t EerReader::frames_per_fraction() const { return 0; }
index_t EerReader::sensor_width() const { return 0; }
index_t EerReader::sensor_height() const { return 0; }
int EerReader::upsampling() const { return 0; }
const EerEncoding& EerReader::encoding() const { return impl_->encoding; }
bool EerReader::legacy() const { return false; }
const std::string& EerReader::metadata_xml() const { return impl_->metadata; }
double EerReader::raw_frame_dose() const { return 0; }
bool EerReader::add_raw_frame(index_t, float*) const { return false; }
index_t EerReader::corrupt_frames_seen() const { return 0; }
std::size_t EerReader::raw_frame_bytes(index_t) const { return 0; }
void EerReader::read_raw_frame(index_t, unsigned char*) const {}
void EerReader::note_corrupt_frame(index_t) const {}

void write_eer_tiff(const std::string& path, const std::vector<std::vector<unsigned char>>&, index_t, index_t,
                    const EerWriteOptions&) {
  throw_input_error(path, "frost was built without EER support (it needs libtiff, not found at configure time)");
}

} // namespace frost::io
