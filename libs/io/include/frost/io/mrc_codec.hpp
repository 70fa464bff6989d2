#pragma once
/// @file mrc_codec.hpp
/// @brief Conversion between MRC data modes and float (docs/formats.md#modes), with byte swapping.
#include <cstddef>
#include <cstdint>

#include "frost/core/shape.hpp"
#include "frost/io/image_info.hpp"
#include "frost/io/mrc_header.hpp"

namespace frost::io {

/// @brief True for the modes frost reads (0, 1, 2, 6, 12, 101).
bool mrc_mode_readable(std::int32_t mode);
/// @brief True for the modes frost writes (0, 1, 2, 6, 12, 101; 2 is the default).
bool mrc_mode_writable(MrcMode mode);
/// @brief Element type of a readable mode; for mode 0, signed or not as decided by the caller.
SampleType mrc_sample_type(std::int32_t mode, bool mode0_unsigned);

/// @brief Bytes of one row of `nx` pixels. Mode 101 rows are byte aligned: ceil(nx/2) bytes, which
/// for even nx is the same as packing the whole image contiguously.
std::size_t mrc_row_bytes(std::int32_t mode, index_t nx);

/// @brief Decodes `rows` rows of `nx` pixels from `src` (file layout) into `out`.
/// @param swap          the data are big-endian (swap each element before converting)
/// @param mode0_unsigned mode-0 bytes are uint8 instead of int8
/// Mode 101 puts the first pixel of each byte in the low nibble (IMOD fill order).
void decode_mrc_rows(std::int32_t mode, const unsigned char* src, bool swap, bool mode0_unsigned,
                     index_t nx, index_t rows, float* out);

/// @brief Encodes `rows` rows of `nx` floats little-endian into `dst` (mrc_row_bytes * rows bytes).
/// Integer modes accept only integral values in range (frost never rescales): anything else
/// throws a Runtime error naming the offending value. Float16 rounds to nearest even.
void encode_mrc_rows(MrcMode mode, const float* src, index_t nx, index_t rows, unsigned char* dst);

/// @brief Reverses the bytes of each `element_bytes`-wide element in place (2, 4 or 8).
void swap_bytes(unsigned char* data, std::size_t count, std::size_t element_bytes);

} // namespace frost::io
