#pragma once
// Synthetic EER data for the tests: electron lists with their expected renders, written through
// the library's encoder and TIFF writer (docs/formats.md#writing-eer), and legacy files. That the
// encoder and the decoder agree with the format and not only with each other is checked by an
// independent decoder, imagecodecs (tests/python/test_eer_interop.py), and by hand-computed streams
// in eer_decode_test.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "frost/core/image.hpp"

namespace frost::test {

/// One electron with its true sub-pixel position (quarter pixels, 0..3 per axis).
struct Electron {
  std::int64_t position; ///< y * width + x on the sensor
  int sx = 0, sy = 0;
};

/// How the stream is coded.
struct StreamLayout {
  int run_bits = 8;
  int symbol_bits = 4;          ///< 4 (2+2) or 2 (1+1: sx, sy are 0 or 1 half pixels)
  bool max_run_has_symbol = true; ///< 12-bit units of the 8-bit format (filler after 255)
};

/// Encodes one frame (electrons sorted by position, at most one per pixel).
std::vector<unsigned char> encode_eer_frame(const std::vector<Electron>& electrons, std::int64_t pixel_count,
                                            const StreamLayout& layout);

/// Counts rendered at `upsampling` for a W x H sensor, computed from the electron lists.
Image<float> expected_render(const std::vector<std::vector<Electron>>& frames, std::int64_t width, std::int64_t height,
                             int upsampling, int symbol_bits = 4);

/// Writes an EER TIFF (one page per stream) with `compression` 65000/65001/65002; for 65002
/// the tags 65007-65009 get run_bits, sub_bits, sub_bits. `metadata` goes to tag 65001 of the
/// first page when not empty. Returns false (with `why`) when libtiff is not available.
bool write_eer_tiff(const std::string& path, const std::vector<std::vector<unsigned char>>& streams, std::int64_t width,
                    std::int64_t height, int compression, bool bigtiff, std::string* why, int run_bits = 7,
                    int sub_bits = 2, const std::string& metadata = "");

/// Writes a legacy (pre-TIFF) EER file: each stream padded to 8-byte words, its word count
/// (8 bytes, little endian) and the footer ThermoFisherECComprOK000.
void write_legacy_eer(const std::string& path, const std::vector<std::vector<unsigned char>>& streams);

/// Three frames on a 64 x 40 sensor that exercise every coding case: electrons on the first and
/// last pixel, adjacent electrons, gaps of exactly 126/127/128, 254/255/256 and several times
/// the maximum run, every sub-pixel symbol, and one pixel hit in all three frames.
std::vector<std::vector<Electron>> three_test_frames();
inline constexpr std::int64_t kTestSensorWidth = 64, kTestSensorHeight = 40;

} // namespace frost::test
