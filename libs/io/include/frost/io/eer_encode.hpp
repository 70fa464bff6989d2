#pragma once
/// @file eer_encode.hpp
/// @brief Encoding of one EER frame, the inverse of decode_eer_frame (docs/formats.md#writing-eer):
/// frost_simulate writes EER movies with it, and the tests make their streams with it. Pure
/// functions without file access, built in every configuration.
#include <cstdint>
#include <vector>

#include "frost/io/eer_decode.hpp"

namespace frost::io {

/// @brief The bit stream of one frame whose electrons are `events` (sorted by position, at most
/// one per pixel, positions below `pixel_count`; symbols as decode_eer_frame returns them, the
/// stored inversion is applied here). Runs longer than the maximum code are split into maximum
/// codes (each followed by a filler symbol when `encoding.max_run_has_symbol`), and the empty
/// pixels after the last electron are coded so that the stream ends exactly at `pixel_count`:
/// the last code is a whole unit (run and filler symbol) and the stream an even number of bytes,
/// as the cameras write it and as imagecodecs requires.
/// @throw frost::Error(Runtime) for unsorted, repeated or out-of-range events.
std::vector<unsigned char> encode_eer_frame(const std::vector<EerEvent>& events, std::int64_t pixel_count,
                                            const EerEncoding& encoding);

/// @brief The stored symbol of a sub-pixel position (sx, sy) on the 4 x 4 grid of a 4-bit symbol
/// (0..3 each) or the 2 x 2 grid of a 2-bit symbol (0..1 each), before the stored inversion:
/// what render_eer_events reads as sx + 4 sy (4-bit) or sx + 2 sy (2-bit).
inline std::uint8_t eer_symbol(int sx, int sy, int symbol_bits) {
  return static_cast<std::uint8_t>(symbol_bits == 4 ? (sx & 3) | ((sy & 3) << 2) : (sx & 1) | ((sy & 1) << 1));
}

} // namespace frost::io
