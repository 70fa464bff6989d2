#include "heuristic_test_util.hpp"

#include <map>
#include <memory>
#include <mutex>

namespace frost::fft::test {

AdvisorRequest request(Extent size, Resize resize, std::optional<double> max_change, int count) {
  AdvisorRequest r;
  r.size = size;
  r.resize = resize;
  r.max_change_pct = max_change;
  r.count = count;
  return r;
}

std::vector<std::string> shapes(const std::vector<Candidate>& cs) {
  std::vector<std::string> out;
  for (const Candidate& c : cs) out.push_back(to_string(c.size));
  return out;
}

SmoothSieve::SmoothSieve(const Profile& profile, index_t limit)
    : limit_(limit), bits_(static_cast<std::size_t>(limit / 64 + 1), 0) {
  // base[m]: smooth over the profile's primes; the single extra primes may divide once on top.
  std::vector<std::uint8_t> base(static_cast<std::size_t>(limit + 1), 0);
  base[1] = 1;
  for (index_t m = 2; m <= limit; ++m)
    for (int p : profile.primes)
      if (m % p == 0 && base[static_cast<std::size_t>(m / p)]) {
        base[static_cast<std::size_t>(m)] = 1;
        break;
      }
  for (index_t m = 1; m <= limit; ++m) {
    bool s = base[static_cast<std::size_t>(m)] != 0;
    for (int e : profile.single_extra_primes)
      if (!s && m % e == 0 && base[static_cast<std::size_t>(m / e)]) s = true;
    if (s) bits_[static_cast<std::size_t>(m >> 6)] |= std::uint64_t{1} << (m & 63);
  }
}

std::vector<index_t> SmoothSieve::scan(index_t lo, index_t hi) const {
  std::vector<index_t> out;
  if (hi > limit_) hi = limit_;
  if (lo < 1) lo = 1;
  for (index_t w = lo >> 6; w <= hi >> 6; ++w) {
    std::uint64_t word = bits_[static_cast<std::size_t>(w)];
    while (word) {
      const index_t m = (w << 6) + __builtin_ctzll(word);
      word &= word - 1;
      if (m >= lo && m <= hi) out.push_back(m);
    }
  }
  return out;
}

const SmoothSieve& sieve_for(const std::string& profile) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<SmoothSieve>> sieves;
  std::lock_guard<std::mutex> lock(mutex);
  auto& s = sieves[profile];
  if (!s) s = std::make_unique<SmoothSieve>(builtin_profile(profile), (index_t{1} << 24) + 1);
  return *s;
}

bool admissible_parity(index_t m, Parity parity, const std::string& profile, Precision precision, Kind kind) {
  const bool even = m % 2 == 0;
  if (parity == Parity::Even) return even;
  if (parity == Parity::Odd) return !even;
  if (even) return true;
  const index_t regular = precision == Precision::F32 ? 5103 : 2187;
  if (profile == "cuda12") return m <= regular;
  if (profile == "cuda8") return false;
  if (profile == "portable") return kind == Kind::C2C && m <= regular;
  if (profile == "fftw") return kind == Kind::C2C;
  return false;
}

} // namespace frost::fft::test
