#include "frost/tuning/random.hpp"

#include "frost/core/error.hpp"
#include "frost/cache/text_hash.hpp"

namespace frost::tuning {

std::uint64_t search_seed(std::uint64_t user_seed, const std::string& record_key) {
  return user_seed ^ cache::fnv1a64(record_key);
}

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t SplitMix64::below(std::uint64_t n) {
  FROST_EXPECTS(n >= 1, "SplitMix64::below needs n >= 1");
  // 2^64 mod n, computed without 128-bit arithmetic: (2^64 - n) mod n.
  const std::uint64_t reject_below = (0 - n) % n;
  for (;;) {
    const std::uint64_t x = next();
    if (x >= reject_below) return x % n;
  }
}

double SplitMix64::unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

} // namespace frost::tuning
