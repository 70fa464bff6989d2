// The kernel-launch model of docs/fft_advisor.md#kernel-estimate and small integer helpers around it.
#include <algorithm>

#include "frost/fft/heuristic.hpp"

namespace frost::fft {

namespace {

int precision_index(Precision p) { return p == Precision::F64 ? 1 : 0; }

/// Removes every factor p from m and returns its exponent.
int strip(index_t& m, index_t p) {
  int e = 0;
  while (m % p == 0) {
    m /= p;
    ++e;
  }
  return e;
}

} // namespace

bool is_smooth(index_t m, const Profile& profile) {
  if (m < 1) return false;
  for (int p : profile.primes) strip(m, p);
  if (m == 1) return true;
  // At most one factor from the "single extra" set (FFTW: one 11 or one 13).
  const auto& extra = profile.single_extra_primes;
  return std::find(extra.begin(), extra.end(), m) != extra.end();
}

int kernel_estimate(index_t m, const Profile& profile, Precision precision) {
  if (m == 1) return 0; // a unit dimension is not transformed
  if (m < 1) return kBadKernels;
  const int pi = precision_index(precision);
  const auto& caps = profile.caps[static_cast<std::size_t>(pi)];
  // One pass: strip every allowed prime, counting launch chunks on the way; the rest decides
  // smoothness.
  index_t rest = m;
  int chunks = 0;
  auto cap = caps.begin(); // primes and caps are both ascending: walk them together
  for (int p : profile.primes) {
    while (cap != caps.end() && cap->first < p) ++cap;
    const int e = strip(rest, p);
    if (e == 0) continue;
    // A prime without a cap would be a profile error; count one launch per factor then.
    const int c = cap == caps.end() || cap->first != p || cap->second < 1 ? 1 : cap->second;
    chunks += (e + c - 1) / c;
  }
  if (rest != 1) {
    const auto& extra = profile.single_extra_primes;
    if (std::find(extra.begin(), extra.end(), rest) == extra.end()) return kBadKernels;
  }
  if (!profile.has_kernel_model) return 1;
  const index_t regular = profile.regular_limit[static_cast<std::size_t>(pi)];
  if (regular > 0 && m <= regular) return 1;
  return chunks;
}

int terms(index_t m) {
  int t = 0;
  for (index_t p : {2, 3, 5, 7})
    if (m >= 1 && m % p == 0) ++t;
  return t;
}

index_t next_power_of_two(index_t n) {
  if (n <= 1) return 1;
  const auto u = static_cast<std::uint64_t>(n - 1);
  return static_cast<index_t>(std::uint64_t{1} << (64 - __builtin_clzll(u)));
}

} // namespace frost::fft
