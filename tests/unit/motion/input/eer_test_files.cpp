#include "eer_test_files.hpp"

#include <fstream>

#include "frost/core/error.hpp"
#include "frost/io/eer_encode.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/io/eer_writer.hpp"

namespace frost::test {

std::vector<unsigned char> encode_eer_frame(const std::vector<Electron>& electrons, std::int64_t pixel_count,
                                            const StreamLayout& layout) {
  io::EerEncoding encoding;
  encoding.run_bits = layout.run_bits;
  encoding.symbol_bits = layout.symbol_bits;
  encoding.max_run_has_symbol = layout.max_run_has_symbol;
  std::vector<io::EerEvent> events;
  events.reserve(electrons.size());
  for (const Electron& e : electrons)
    events.push_back({static_cast<std::uint32_t>(e.position), io::eer_symbol(e.sx, e.sy, layout.symbol_bits)});
  return io::encode_eer_frame(events, pixel_count, encoding);
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
  if (!io::eer_supported()) {
    *why = "frost was built without libtiff, so EER files cannot be written or read";
    return false;
  }
  io::EerWriteOptions options;
  options.compression = compression;
  options.bigtiff = bigtiff;
  options.run_bits = run_bits;
  options.sub_bits = sub_bits;
  options.metadata = metadata;
  try {
    io::write_eer_tiff(path, streams, width, height, options);
  } catch (const Error& e) {
    *why = e.what();
    return false;
  }
  return true;
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
