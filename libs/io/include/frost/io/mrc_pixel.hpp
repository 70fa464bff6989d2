#pragma once
/// @file mrc_pixel.hpp
/// @brief One stored MRC pixel to float (docs/formats.md#modes), as FROST_HD code: the per-element rule of
/// decode_mrc_rows() for kernels that decode file bytes on the device (the CUDA movie upload).
/// The results are bit for bit those of decode_mrc_rows(): integers convert exactly, float32 is
/// the stored bits, float16 is half_to_float() of the stored bits (exact), mode 101 takes the low
/// nibble for even x.
#include <cstdint>

#include "frost/core/hd.hpp"
#include "frost/core/shape.hpp"

namespace frost::io {

/// half_to_float() (float16.hpp) in FROST_HD form: the same bit construction.
FROST_HD inline float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu;
  const std::uint32_t mantissa = h & 0x3ffu;
  std::uint32_t bits;
  if (exponent == 0) {
    // Zero or subnormal: mantissa · 2^-24, exact in float (mantissa < 2^10).
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
#if defined(__CUDA_ARCH__)
    bits = __float_as_uint(magnitude) | sign;
#else
    __builtin_memcpy(&bits, &magnitude, sizeof bits);
    bits |= sign;
#endif
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  }
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  float f;
  __builtin_memcpy(&f, &bits, sizeof f);
  return f;
#endif
}

/// The `bytes`-wide little- or big-endian (swap) unsigned value at p.
FROST_HD inline std::uint32_t mrc_load_bits(const unsigned char* p, int bytes, bool swap) {
  std::uint32_t v = 0;
  for (int b = 0; b < bytes; ++b) {
    const int shift = 8 * (swap ? bytes - 1 - b : b);
    v |= static_cast<std::uint32_t>(p[b]) << shift;
  }
  return v;
}

/// @brief Pixel x of a stored row (`row` points at its first byte) of a readable mode (0, 1, 2,
/// 6, 12, 101), as decode_mrc_rows() converts it; other modes give 0.
FROST_HD inline float mrc_pixel(std::int32_t mode, const unsigned char* row, index_t x, bool swap,
                                bool mode0_unsigned) {
  switch (mode) {
  case 0:
    return mode0_unsigned ? static_cast<float>(row[x]) : static_cast<float>(static_cast<std::int8_t>(row[x]));
  case 1: return static_cast<float>(static_cast<std::int16_t>(mrc_load_bits(row + 2 * x, 2, swap)));
  case 2: {
    const std::uint32_t bits = mrc_load_bits(row + 4 * x, 4, swap);
#if defined(__CUDA_ARCH__)
    return __uint_as_float(bits);
#else
    float f;
    __builtin_memcpy(&f, &bits, sizeof f);
    return f;
#endif
  }
  case 6: return static_cast<float>(static_cast<std::uint16_t>(mrc_load_bits(row + 2 * x, 2, swap)));
  case 12: return half_bits_to_float(static_cast<std::uint16_t>(mrc_load_bits(row + 2 * x, 2, swap)));
  case 101: {
    const unsigned char byte = row[x / 2];
    return static_cast<float>((x & 1) ? (byte >> 4) : (byte & 0x0f));
  }
  default: return 0.f;
  }
}

} // namespace frost::io
