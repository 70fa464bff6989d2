// EER TIFF writer. libtiff writes the container into memory through a client (it reads back
// what it wrote to link the page chain), and the bytes go to disk through AtomicFile.
#include "frost/io/eer_writer.hpp"

#include <tiffio.h>

#include <algorithm>
#include <cstring>

#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"

namespace frost::io {

namespace {

/// A growable in-memory file for TIFFClientOpen.
struct MemoryFile {
  std::vector<unsigned char> bytes;
  std::uint64_t at = 0;
};

tmsize_t memory_read(thandle_t h, void* buf, tmsize_t size) {
  auto& f = *static_cast<MemoryFile*>(h);
  const std::uint64_t n = f.at >= f.bytes.size() ? 0 : std::min<std::uint64_t>(size, f.bytes.size() - f.at);
  if (n > 0) std::memcpy(buf, f.bytes.data() + f.at, n);
  f.at += n;
  return static_cast<tmsize_t>(n);
}

tmsize_t memory_write(thandle_t h, void* buf, tmsize_t size) {
  auto& f = *static_cast<MemoryFile*>(h);
  const auto n = static_cast<std::uint64_t>(size);
  if (f.at + n > f.bytes.size()) f.bytes.resize(f.at + n);
  std::memcpy(f.bytes.data() + f.at, buf, n);
  f.at += n;
  return size;
}

toff_t memory_seek(thandle_t h, toff_t offset, int whence) {
  auto& f = *static_cast<MemoryFile*>(h);
  const std::uint64_t base = whence == SEEK_CUR ? f.at : whence == SEEK_END ? f.bytes.size() : 0;
  f.at = base + offset;
  return f.at;
}

int memory_close(thandle_t) { return 0; }
toff_t memory_size(thandle_t h) { return static_cast<MemoryFile*>(h)->bytes.size(); }
int memory_map(thandle_t, void**, toff_t*) { return 0; }
void memory_unmap(thandle_t, void*, toff_t) {}

constexpr ttag_t kTagMetadata = 65001, kTagRunBits = 65007, kTagHorizontal = 65008, kTagVertical = 65009;

} // namespace

void write_eer_tiff(const std::string& path, const std::vector<std::vector<unsigned char>>& streams, index_t width,
                    index_t height, const EerWriteOptions& options) {
  eer_write_encoding(options); // refuses what the reader would refuse
  if (width < 1 || height < 1 || width > 65535 || height > 65535)
    throw_input_error(path, "EER frame size " + std::to_string(width) + "x" + std::to_string(height) + " not supported");
  if (streams.empty()) throw_input_error(path, "an EER file needs at least one raw frame");
  MemoryFile memory;
  TIFF* tif = TIFFClientOpen(path.c_str(), options.bigtiff ? "w8" : "w", &memory, memory_read, memory_write,
                             memory_seek, memory_close, memory_size, memory_map, memory_unmap);
  if (!tif) throw_input_error(path, "libtiff cannot start an EER container");
  // The private tags, declared as a writer must; readers see them as unknown tags.
  static const TIFFFieldInfo kTags[] = {
      {kTagMetadata, TIFF_VARIABLE2, TIFF_VARIABLE2, TIFF_UNDEFINED, FIELD_CUSTOM, 1, 1,
       const_cast<char*>("EerMetadata")},
      {kTagRunBits, 1, 1, TIFF_SHORT, FIELD_CUSTOM, 1, 0, const_cast<char*>("EerRleBits")},
      {kTagHorizontal, 1, 1, TIFF_SHORT, FIELD_CUSTOM, 1, 0, const_cast<char*>("EerHorizontalSubBits")},
      {kTagVertical, 1, 1, TIFF_SHORT, FIELD_CUSTOM, 1, 0, const_cast<char*>("EerVerticalSubBits")}};
  bool ok = true;
  const unsigned char empty = 0;
  for (std::size_t i = 0; i < streams.size() && ok; ++i) {
    TIFFMergeFieldInfo(tif, kTags, 4); // every new directory starts from libtiff's own tag list
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(width));
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(height));
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 1);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, static_cast<std::uint32_t>(height));
    TIFFSetField(tif, TIFFTAG_COMPRESSION, static_cast<std::uint16_t>(options.compression));
    if (options.compression == kEerCompressionDetailed) {
      TIFFSetField(tif, kTagRunBits, static_cast<std::uint16_t>(options.run_bits));
      TIFFSetField(tif, kTagHorizontal, static_cast<std::uint16_t>(options.sub_bits));
      TIFFSetField(tif, kTagVertical, static_cast<std::uint16_t>(options.sub_bits));
    }
    // The XML as bytes (type UNDEFINED), as the cameras write it and as readers that recognise an
    // EER file by it (tifffile) expect.
    if (i == 0 && !options.metadata.empty())
      TIFFSetField(tif, kTagMetadata, static_cast<std::uint32_t>(options.metadata.size()), options.metadata.data());
    const std::vector<unsigned char>& s = streams[i];
    void* data = const_cast<unsigned char*>(s.empty() ? &empty : s.data());
    ok = TIFFWriteRawStrip(tif, 0, data, static_cast<tmsize_t>(std::max<std::size_t>(1, s.size()))) >= 0 &&
         TIFFWriteDirectory(tif);
  }
  TIFFClose(tif);
  if (!ok) throw_input_error(path, "libtiff failed to write the EER pages");
  AtomicFile file(path);
  file.write(memory.bytes.data(), memory.bytes.size());
  file.commit();
}

} // namespace frost::io
