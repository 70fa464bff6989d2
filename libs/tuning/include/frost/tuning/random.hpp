#pragma once
/// @file random.hpp
/// @brief The searchers' random numbers (docs/tune.md#determinism): SplitMix64, bounded integers by
/// rejection sampling and doubles from the top 53 bits, so that a seed gives the same sequence
/// of configurations with every compiler and standard library.
#include <cstdint>
#include <string>

namespace frost::tuning {

/// The default user seed (`--tune-seed`).
constexpr std::uint64_t kDefaultSeed = 0x5eed;

/// The generator seed of a search: `user_seed XOR FNV-1a 64(record key)`, so that different
/// kernels and problems explore in different orders under one user seed.
std::uint64_t search_seed(std::uint64_t user_seed, const std::string& record_key);

class SplitMix64 {
public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  /// Uniform in [0, n) for n >= 1: outputs below 2^64 mod n are rejected, the rest taken mod n.
  std::uint64_t below(std::uint64_t n);
  /// Uniform in [0, 1): (x >> 11) * 2^-53.
  double unit();

private:
  std::uint64_t state_;
};

} // namespace frost::tuning
