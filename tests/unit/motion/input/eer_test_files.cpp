#include "eer_test_files.hpp"

#include <fstream>
#include <stdexcept>

#if FROST_HAVE_TIFF
#include <tiffio.h>
#endif

namespace frost::test {

namespace {

/// Appends values least-significant bit first.
class BitWriter {
public:
  void put(std::uint32_t value, int bits) {
    for (int i = 0; i < bits; ++i) {
      if (used_ % 8 == 0) bytes_.push_back(0);
      if ((value >> i) & 1u) bytes_.back() |= static_cast<unsigned char>(1u << (used_ % 8));
      ++used_;
    }
  }
  std::vector<unsigned char> take() { return std::move(bytes_); }

private:
  std::vector<unsigned char> bytes_;
  std::size_t used_ = 0;
};

} // namespace

std::vector<unsigned char> encode_eer_frame(const std::vector<Electron>& electrons, std::int64_t pixel_count,
                                            const StreamLayout& layout) {
  const std::uint32_t max_run = (1u << layout.run_bits) - 1u;
  BitWriter out;
  const auto skip_max = [&] {
    out.put(max_run, layout.run_bits);
    if (layout.max_run_has_symbol) out.put(0x5u, layout.symbol_bits); // filler the decoder must ignore
  };
  std::int64_t cursor = 0;
  for (const Electron& e : electrons) {
    if (e.position < cursor || e.position >= pixel_count) throw std::logic_error("electrons must be sorted and unique");
    std::int64_t gap = e.position - cursor;
    while (gap >= max_run) {
      skip_max();
      gap -= max_run;
    }
    out.put(static_cast<std::uint32_t>(gap), layout.run_bits);
    // Stored symbols carry the high bit of each axis field inverted.
    const std::uint32_t symbol = layout.symbol_bits == 4 ? std::uint32_t(e.sx | (e.sy << 2)) ^ 0x0Au
                                                         : std::uint32_t((e.sx & 1) | ((e.sy & 1) << 1)) ^ 0x3u;
    out.put(symbol, layout.symbol_bits);
    cursor = e.position + 1;
  }
  std::int64_t rest = pixel_count - cursor;
  while (rest > max_run) {
    skip_max();
    rest -= max_run;
  }
  if (rest > 0) out.put(static_cast<std::uint32_t>(rest), layout.run_bits);
  return out.take();
}

Image<float> expected_render(const std::vector<std::vector<Electron>>& frames, std::int64_t width, std::int64_t height,
                             int upsampling, int symbol_bits) {
  Image<float> img(Shape::image(width * upsampling, height * upsampling));
  for (const auto& frame : frames)
    for (const Electron& e : frame) {
      const std::int64_t x = e.position % width, y = e.position / width;
      std::int64_t gx = x, gy = y;
      if (upsampling == 2) {
        gx = 2 * x + (symbol_bits == 4 ? e.sx / 2 : e.sx & 1);
        gy = 2 * y + (symbol_bits == 4 ? e.sy / 2 : e.sy & 1);
      } else if (upsampling == 4) {
        gx = 4 * x + e.sx;
        gy = 4 * y + e.sy;
      }
      img(gx, gy) += 1.0f;
    }
  return img;
}

bool write_eer_tiff(const std::string& path, const std::vector<std::vector<unsigned char>>& streams, std::int64_t width,
                    std::int64_t height, int compression, bool bigtiff, std::string* why, int run_bits, int sub_bits,
                    const std::string& metadata) {
#if FROST_HAVE_TIFF
  TIFF* tif = TIFFOpen(path.c_str(), bigtiff ? "w8" : "w");
  if (!tif) {
    *why = "libtiff cannot create " + path;
    return false;
  }
  // The private tags as a writer must declare them; the reader sees them as unknown tags.
  static const TIFFFieldInfo kTags[] = {
      {65001, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0, const_cast<char*>("EerMetadata")},
      {65007, 1, 1, TIFF_SHORT, FIELD_CUSTOM, 1, 0, const_cast<char*>("EerRleBits")},
      {65008, 1, 1, TIFF_SHORT, FIELD_CUSTOM, 1, 0, const_cast<char*>("EerHorizontalSubBits")},
      {65009, 1, 1, TIFF_SHORT, FIELD_CUSTOM, 1, 0, const_cast<char*>("EerVerticalSubBits")}};
  for (std::size_t i = 0; i < streams.size(); ++i) {
    TIFFMergeFieldInfo(tif, kTags, 4); // each new directory starts from libtiff's own tag list
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(width));
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(height));
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, static_cast<std::uint32_t>(height));
    TIFFSetField(tif, TIFFTAG_COMPRESSION, static_cast<std::uint16_t>(compression));
    if (compression == 65002) {
      TIFFSetField(tif, 65007, static_cast<std::uint16_t>(run_bits));
      TIFFSetField(tif, 65008, static_cast<std::uint16_t>(sub_bits));
      TIFFSetField(tif, 65009, static_cast<std::uint16_t>(sub_bits));
    }
    if (i == 0 && !metadata.empty()) TIFFSetField(tif, 65001, metadata.c_str());
    std::vector<unsigned char> data = streams[i];
    if (data.empty()) data.push_back(0);
    if (TIFFWriteRawStrip(tif, 0, data.data(), static_cast<tmsize_t>(data.size())) < 0 || !TIFFWriteDirectory(tif)) {
      TIFFClose(tif);
      *why = "libtiff failed to write page " + std::to_string(i) + " of " + path;
      return false;
    }
  }
  TIFFClose(tif);
  return true;
#else
  (void)path, (void)streams, (void)width, (void)height, (void)compression, (void)bigtiff, (void)run_bits,
      (void)sub_bits, (void)metadata;
  *why = "frost was built without libtiff, so EER files cannot be written or read";
  return false;
#endif
}

void write_legacy_eer(const std::string& path, const std::vector<std::vector<unsigned char>>& streams) {
  std::ofstream out(path, std::ios::binary);
  for (const auto& s : streams) {
    std::vector<unsigned char> padded = s;
    padded.resize((padded.size() + 7) / 8 * 8, 0);
    out.write(reinterpret_cast<const char*>(padded.data()), static_cast<std::streamsize>(padded.size()));
    std::uint64_t words = padded.size() / 8;
    unsigned char le[8];
    for (int i = 0; i < 8; ++i) le[i] = static_cast<unsigned char>(words >> (8 * i));
    out.write(reinterpret_cast<const char*>(le), 8);
    out.write("ThermoFisherECComprOK000", 24);
  }
}

std::vector<std::vector<Electron>> three_test_frames() {
  const auto with_symbols = [](std::vector<std::int64_t> positions, int offset) {
    std::vector<Electron> out;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const int k = static_cast<int>(i) + offset;
      out.push_back({positions[i], k % 4, (k / 4) % 4});
    }
    return out;
  };
  // Gaps (empty pixels before each electron) of frame 0: 0, 0, 126, 127, 128, 254, 255, 256,
  // 510, 381, 512; the last electron is on the last pixel.
  return {with_symbols({0, 1, 128, 256, 385, 640, 896, 1153, 1664, 2046, 2559}, 0),
          with_symbols({5, 6, 7, 262, 1153, 2000}, 11), // ends with 559 empty pixels
          with_symbols({127, 255, 1153, 2558}, 3)};     // ends with 1 empty pixel
}

} // namespace frost::test
