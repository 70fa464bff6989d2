// Per-dimension candidate sets (docs/fft_advisor.md#per-dimension-candidates) and their kernel
// filter (docs/fft_advisor.md#kernel-filter).
#include <algorithm>
#include <cmath>
#include <limits>

#include "frost/fft/heuristic.hpp"
#include "heuristic_detail.hpp"

namespace frost::fft {

namespace detail {

namespace {

constexpr std::int64_t kMicroPerPercent = 1'000'000;
constexpr std::int64_t kMicroHundredPercent = 100 * kMicroPerPercent;
/// Changes beyond this (a billion percent) are "unlimited" in every window; it also keeps the
/// scaled arithmetic far from overflow.
constexpr double kMaxFinitePct = 1e9;

/// Appends every m = base * p_i^e_i ... * p_last^e in [lo, hi] (primes[i..] only).
void enumerate(const std::vector<int>& primes, std::size_t i, index_t base, index_t lo, index_t hi,
               std::vector<index_t>& out) {
  if (i + 1 == primes.size()) {
    // Innermost prime: walk its powers directly, skipping those below the window.
    const index_t p = primes[i];
    for (index_t m = base;; m *= p) {
      if (m >= lo) out.push_back(m);
      if (m > hi / p) break;
    }
    return;
  }
  const index_t p = primes[i];
  for (index_t m = base;; m *= p) {
    enumerate(primes, i + 1, m, lo, hi, out);
    if (m > hi / p) break;
  }
}

} // namespace

index_t saturate(wide_t v) {
  if (v < 0) return 0;
  if (v > static_cast<wide_t>(std::numeric_limits<index_t>::max())) return std::numeric_limits<index_t>::max();
  return static_cast<index_t>(v);
}

std::optional<std::int64_t> change_micro_pct(const AdvisorRequest& req) {
  if (!req.max_change_pct || std::isinf(*req.max_change_pct)) return std::nullopt;
  const double p = std::min(*req.max_change_pct, kMaxFinitePct);
  // Exact for the usual inputs (integers, a few decimals): 10 % becomes 10'000'000 exactly.
  return std::llround(p * static_cast<double>(kMicroPerPercent));
}

index_t grow_floor(wide_t n, std::int64_t micro_pct) {
  return saturate(n * (kMicroHundredPercent + micro_pct) / kMicroHundredPercent);
}

index_t shrink_ceil(wide_t n, std::int64_t micro_pct) {
  if (micro_pct >= kMicroHundredPercent) return 1;
  const wide_t num = n * (kMicroHundredPercent - micro_pct);
  return std::max<index_t>(1, saturate((num + kMicroHundredPercent - 1) / kMicroHundredPercent));
}

Resize effective_resize(const AdvisorRequest& req) {
  if (req.max_change_pct && *req.max_change_pct == 0) return Resize::Keep;
  return req.resize;
}

bool dimension_kept(const AdvisorRequest& req, int d) {
  if (req.size[d] == 1 || effective_resize(req) == Resize::Keep) return true;
  return req.optimize_dims > 0 && d >= req.optimize_dims;
}

Window dimension_window(index_t n, Resize resize, const std::optional<std::int64_t>& micro_pct) {
  if (resize == Resize::Pad) {
    const index_t cap = next_power_of_two(n);
    return {n, micro_pct ? std::min(cap, grow_floor(n, *micro_pct)) : cap};
  }
  if (resize == Resize::Crop) {
    // A transformed dimension stays one: cropping to length 1 would change the rank, and its
    // zero kernel estimate would distort the filter's minimum.
    const index_t floor = n > 1 ? 2 : 1;
    return {std::max(floor, micro_pct ? shrink_ceil(n, *micro_pct) : 1), n};
  }
  return {n, n};
}

bool parity_ok(index_t m, Parity parity, const Profile& profile, Precision precision, Kind kind) {
  const bool even = m % 2 == 0;
  if (parity == Parity::Even) return even;
  if (parity == Parity::Odd) return !even;
  if (even) return true;
  switch (kind == Kind::C2C ? profile.complex_rule : profile.real_rule) {
    case EvenRule::Never: return true;
    case EvenRule::Always: return false;
    case EvenRule::AboveRegular: {
      const index_t regular = profile.regular_limit[precision == Precision::F64 ? 1 : 0];
      return m <= regular;
    }
  }
  return false;
}

std::vector<index_t> dimension_candidates_for(index_t n, bool kept, Parity parity, Resize resize,
                                              const std::optional<std::int64_t>& micro_pct,
                                              const Profile& profile, Precision precision, Kind kind) {
  if (n == 1) return {1}; // unit dimensions are never transformed, so never changed
  if (kept || resize == Resize::Keep) {
    // Kept as requested even when not smooth; only an explicit parity request can reject it.
    const bool even = n % 2 == 0;
    if ((parity == Parity::Even && !even) || (parity == Parity::Odd && even)) return {};
    return {n};
  }
  const Window w = dimension_window(n, resize, micro_pct);
  std::vector<index_t> all;
  if (w.lo > w.hi || profile.primes.empty()) return all;
  // Nested loops over exponents, largest prime outermost so the innermost loop (usually over
  // powers of 2) is the long one; the single extra primes (FFTW's 11 or 13) multiply the base once.
  const std::vector<int> primes(profile.primes.rbegin(), profile.primes.rend());
  enumerate(primes, 0, 1, w.lo, w.hi, all);
  for (int extra : profile.single_extra_primes)
    if (extra <= w.hi) enumerate(primes, 0, extra, w.lo, w.hi, all);
  std::vector<index_t> out;
  out.reserve(all.size());
  for (index_t m : all)
    if (m <= w.hi && parity_ok(m, parity, profile, precision, kind)) out.push_back(m);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace detail

std::vector<index_t> dimension_candidates(const AdvisorRequest& req, const Profile& profile, int d,
                                          Precision precision, Kind kind) {
  FROST_EXPECTS(d >= 0 && d < 3, "dimension index must be 0, 1 or 2");
  return detail::dimension_candidates_for(req.size[d], detail::dimension_kept(req, d),
                                          req.parity[static_cast<std::size_t>(d)], detail::effective_resize(req),
                                          detail::change_micro_pct(req), profile, precision, kind);
}

std::vector<index_t> filter_dimension(const std::vector<index_t>& candidates, index_t n, const Profile& profile,
                                      Precision precision) {
  if (candidates.empty()) return {};
  // The minimum and the closest member are computed independently (the reference aliased them:
  // defect 1 of docs/fft_advisor.md#defects-of-the-reference-we-do-not-copy).
  // Closest: smallest |m - n|, the smaller size on a tie.
  std::vector<int> k(candidates.size());
  int k_min = std::numeric_limits<int>::max();
  index_t closest = candidates.front();
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const index_t m = candidates[i];
    k[i] = kernel_estimate(m, profile, precision);
    k_min = std::min(k_min, k[i]);
    const index_t dm = m > n ? m - n : n - m;
    const index_t dc = closest > n ? closest - n : n - closest;
    if (dm < dc || (dm == dc && m < closest)) closest = m;
  }
  std::vector<index_t> out;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (candidates[i] == closest || k[i] <= k_min + 2) out.push_back(candidates[i]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace frost::fft
