#pragma once
/// @file text_hash.hpp
/// @brief The hash of the cache keys, signatures and fingerprints that cache records carry.
#include <cstdint>
#include <string>

namespace frost::cache {

/// 64-bit FNV-1a of the bytes of `text`.
std::uint64_t fnv1a64(const std::string& text);

/// 16 lower-case hex digits.
std::string hex64(std::uint64_t v);

} // namespace frost::cache
