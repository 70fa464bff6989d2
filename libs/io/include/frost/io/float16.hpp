#pragma once
/// @file float16.hpp
/// @brief Exact IEEE-754 binary16 <-> binary32 conversion (MRC mode 12).
///
/// Every half value, subnormals, infinities and NaN included, is representable as a float, so
/// half -> float is exact. float -> half rounds to nearest, ties to even, as IEEE-754 requires;
/// values at or above 65520 in magnitude become infinity.
#include <cmath>
#include <cstdint>
#include <cstring>

namespace frost::io {

/// @brief Converts a binary16 bit pattern to float exactly.
inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu;
  const std::uint32_t mantissa = h & 0x3ffu;
  std::uint32_t bits;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    std::memcpy(&bits, &magnitude, sizeof bits);
    bits |= sign;
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (mantissa << 13); // infinity or NaN (payload kept)
  } else {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

/// @brief Converts a float to the nearest binary16 bit pattern (ties to even).
inline std::uint16_t float_to_half(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t abs_bits = x & 0x7fffffffu;
  if (abs_bits >= 0x7f800000u) { // infinity or NaN; keep NaN a NaN even if the payload is lost
    const std::uint32_t nan_payload = abs_bits > 0x7f800000u ? (0x200u | ((abs_bits >> 13) & 0x3ffu)) : 0u;
    return static_cast<std::uint16_t>(sign | 0x7c00u | nan_payload);
  }
  if (abs_bits >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u); // >= 65520
  const std::uint32_t exponent = abs_bits >> 23;
  if (exponent < 113) {
    // Below the smallest normal half (2^-14): a subnormal multiple of 2^-24, or zero.
    if (exponent < 101) return sign; // < 2^-25 rounds to zero (also float subnormals)
    const std::uint32_t mantissa = (abs_bits & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126u - exponent; // value / 2^-24 = mantissa >> shift
    std::uint32_t h = mantissa >> shift;
    const std::uint32_t rest = mantissa & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1u);
    if (rest > halfway || (rest == halfway && (h & 1u))) ++h; // may carry into the first normal
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = ((exponent - 112u) << 10) | ((abs_bits & 0x7fffffu) >> 13);
  const std::uint32_t rest = abs_bits & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h; // carry into the exponent is correct
  return static_cast<std::uint16_t>(sign | h);
}

} // namespace frost::io
