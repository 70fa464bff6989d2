#pragma once
/// @file eer_decode.hpp
/// @brief Decoding and rendering of one EER frame (docs/formats.md#decoding-an-eer-frame,
/// docs/movie_align.md#movie-formats). Pure functions without file access or libtiff, so they are
/// built in every configuration.
///
/// A frame is a bit stream read least-significant bit first. Each code is a run length `p` of
/// `run_bits` bits: the counter advances by `p`; the maximum code (all ones) means the run goes
/// on without an electron; any other code is followed by a `symbol_bits` sub-pixel symbol and an
/// electron at the counter, which then advances by one more. The frame ends exactly when the
/// counter reaches the pixel count; anything else is a corrupt frame.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "frost/core/shape.hpp"
#include "frost/io/eer_stream.hpp"

namespace frost::io {

/// TIFF compression codes of EER pages.
inline constexpr int kEerCompression8Bit = 65000;     ///< 8-bit run length + 4-bit symbol
inline constexpr int kEerCompression7Bit = 65001;     ///< 7-bit run length + 4-bit symbol
inline constexpr int kEerCompressionDetailed = 65002; ///< bit sizes in private tags 65007-65009

/// @brief How the codes of a frame are laid out.
struct EerEncoding {
  int run_bits = 7;    ///< bits of a run length (7 or 8)
  int symbol_bits = 4; ///< bits of a sub-pixel symbol: 4 (2 per axis) or 2 (1 per axis)
  /// The 8-bit format packs codes in fixed 12-bit units (two per three bytes), so a maximum
  /// run code is followed by 4 unused symbol bits. This is how RELION's 8-bit decoder reads
  /// 65000 and legacy files; imagecodecs reads every maximum code without a symbol. Not yet
  /// checked against a real 65000 file: kept switchable so a test can pin either reading.
  bool max_run_has_symbol = false;

  /// Largest run code (all ones): no electron follows it.
  std::uint32_t max_run() const { return codes().max_run(); }
  /// Stored symbols hold the high bit of each axis field inverted: 0x0A for 4 bits, 0x3 for 2.
  std::uint32_t symbol_xor() const { return codes().symbol_xor(); }
  /// "8-bit RLE + 4-bit symbols" for messages.
  std::string describe() const;
  /// The same layout as plain values for eer_stream.hpp (host and device).
  EerCodes codes() const { return {run_bits, symbol_bits, max_run_has_symbol}; }
};

/// @brief The encoding of a TIFF compression code: 65000 -> 8 + 4 (fixed 12-bit units),
/// 65001 -> 7 + 4. 65002 needs its tags (make_detailed_eer_encoding).
/// @throw frost::Error(Input) naming `path` for any other code.
EerEncoding eer_encoding_for_compression(int compression, const std::string& path);

/// @brief The encoding of a 65002 page from its tags 65007 (run bits), 65008 and 65009
/// (horizontal and vertical sub-pixel bits). frost supports run bits 7 or 8 with 2+2 or 1+1
/// sub-pixel bits. @throw frost::Error(Input) naming `path` otherwise.
EerEncoding make_detailed_eer_encoding(int run_bits, int horizontal_bits, int vertical_bits, const std::string& path);

/// @brief One electron: linear sensor position (y * width + x) and its sub-pixel symbol with the
/// stored inversion already undone.
struct EerEvent {
  std::uint32_t position;
  std::uint8_t symbol;
};

/// @brief Decodes one frame into `events` (cleared first).
/// @return true when the codes end exactly at `pixel_count`; false for a corrupt frame (the
/// stream ends early or a run passes the last pixel). `events` is then incomplete.
bool decode_eer_frame(const unsigned char* data, std::size_t bytes, const EerEncoding& encoding,
                      std::int64_t pixel_count, std::vector<EerEvent>& events);

/// @brief Adds one count per event to a grid of (sensor_width * upsampling) x
/// (sensor_height * upsampling) floats, x fastest. No row flip (EER rows are memory rows).
///
/// upsampling 1: (x, y) = (n mod W, n div W); 2: (2x + bit1(s), 2y + bit3(s)) for 4-bit
/// symbols, (2x + bit0(s), 2y + bit1(s)) for 2-bit symbols; 4: (4x + (s & 3), 4y + ((s >> 2) & 3)),
/// 4-bit symbols only (Input error otherwise). RELION and MotionCor2 call these 1, 2 and 3.
void render_eer_events(const std::vector<EerEvent>& events, index_t sensor_width, int symbol_bits,
                       int upsampling, float* grid);

/// @brief True when `upsampling` is 1, 2 or 4.
inline bool valid_eer_upsampling(int upsampling) { return upsampling == 1 || upsampling == 2 || upsampling == 4; }

} // namespace frost::io
