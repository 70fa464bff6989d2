#pragma once
/// @file heuristic_test_util.hpp
/// @brief Helpers shared by the heuristic tests: request builders and an independent sieve of
/// smooth numbers (built by a different method than the library's exponent loops).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frost/fft/heuristic.hpp"

namespace frost::fft::test {

/// A float R2C out-of-place batched request of one signal.
AdvisorRequest request(Extent size, Resize resize = Resize::Pad, std::optional<double> max_change = std::nullopt,
                       int count = 10);

/// Sizes of a result list, as "XxYxZ" strings (readable gtest failures).
std::vector<std::string> shapes(const std::vector<Candidate>& cs);

/// Bitset of the sizes 1..limit that a profile accepts as smooth, built by dynamic programming
/// over divisibility (smooth(m) = some allowed p divides m and smooth(m / p)), i.e. without the
/// library's enumeration.
class SmoothSieve {
public:
  SmoothSieve(const Profile& profile, index_t limit);
  bool smooth(index_t m) const { return m >= 1 && m <= limit_ && ((bits_[m >> 6] >> (m & 63)) & 1u); }
  /// Every smooth m in [lo, hi] (ascending), by a word-wise scan.
  std::vector<index_t> scan(index_t lo, index_t hi) const;
  index_t limit() const { return limit_; }

private:
  index_t limit_;
  std::vector<std::uint64_t> bits_;
};

/// The sieve for a built-in profile up to 2^24 + 1, built once per process.
const SmoothSieve& sieve_for(const std::string& profile);

/// The parity rule written out independently of the library (docs/fft_advisor.md#profiles).
bool admissible_parity(index_t m, Parity parity, const std::string& profile, Precision precision, Kind kind);

} // namespace frost::fft::test
