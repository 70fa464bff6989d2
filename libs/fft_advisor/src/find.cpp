// find (docs/fft_advisor.md#find) and benchmark mode (docs/fft_advisor.md#benchmark-mode), generic over
// a Measurer so that the same ranking and selection serve cuFFT, FFTW and the tests' fake measurers.
#include <algorithm>
#include <chrono>
#include <numeric>

#include "frost/fft/heuristic.hpp"
#include "heuristic_detail.hpp"

namespace frost::fft {

namespace {

bool same_configuration(const Candidate& a, const Candidate& b) {
  return a.spec() == b.spec() && a.batched == b.batched;
}

/// Measures `original` and then `candidates` (heuristic order) within the budget, ranks them by
/// per-signal median (failures last) and applies the selection rule 7.
FindResult measure_and_rank(std::vector<Candidate> candidates, Candidate original, Measurer& measurer,
                            const Protocol& protocol) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto over_budget = [&] {
    if (protocol.budget_s <= 0) return false; // no budget
    return std::chrono::duration<double>(Clock::now() - start).count() >= protocol.budget_s;
  };
  FindResult result;
  // The original first, so every candidate measured afterwards has its speedup.
  original.measured = measurer.measure(original, protocol);
  std::size_t measured = 0;
  for (Candidate& c : candidates) {
    // At least one candidate is always measured, so the result is never empty.
    if (measured > 0 && over_budget()) {
      result.budget_exhausted = true;
      break;
    }
    c.measured = same_configuration(c, original) ? *original.measured : measurer.measure(c, protocol);
    ++measured;
  }
  candidates.resize(measured);

  const bool have_original = original.measured->ok() && original.measured->median_ms_per_signal > 0;
  if (have_original) original.speedup_vs_original = 1.0;
  for (Candidate& c : candidates)
    if (have_original && c.measured->ok() && c.measured->median_ms_per_signal > 0)
      c.speedup_vs_original = original.measured->median_ms_per_signal / c.measured->median_ms_per_signal;

  // Ranking: ascending per-signal median, failures last; ties keep the heuristic order.
  std::vector<std::size_t> order(candidates.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Measurement& ma = *candidates[a].measured;
    const Measurement& mb = *candidates[b].measured;
    if (ma.ok() != mb.ok()) return ma.ok();
    return ma.ok() && ma.median_ms_per_signal < mb.median_ms_per_signal;
  });
  if (order.empty() || !candidates[order.front()].measured->ok()) {
    const std::string first_error = order.empty() ? std::string("no candidates") : candidates[order.front()].measured->error;
    throw NoCandidate("no configuration could be measured (" + first_error + ")");
  }

  // Rule 7: the heuristically best candidate whose median is within max(2 %, 2 x relative std of
  // the fastest) of the fastest; when the measurement cannot tell them apart, the model decides.
  const Measurement& fastest = *candidates[order.front()].measured;
  const double rel_std =
      fastest.median_ms_per_signal > 0 ? fastest.std_ms_per_signal / fastest.median_ms_per_signal : 0.0;
  const double limit = fastest.median_ms_per_signal * (1.0 + std::max(0.02, 2.0 * rel_std));
  std::size_t chosen = order.front(); // heuristic index
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Measurement& m = *candidates[i].measured;
    if (m.ok() && m.median_ms_per_signal <= limit) {
      chosen = i;
      break;
    }
  }
  for (std::size_t r = 0; r < order.size(); ++r) {
    result.ranked.push_back(candidates[order[r]]);
    if (order[r] == chosen) result.selected = static_cast<int>(r);
  }
  result.original = original;
  return result;
}

} // namespace

FindResult find(const AdvisorRequest& req, const Profile& profile, const ScratchModel& scratch, Measurer& measurer,
                const Protocol& protocol, int top) {
  if (top < 1) throw_usage_error("find needs at least one candidate to measure (top >= 1)");
  detail::validate_request(req);
  AdvisorRequest r = req;
  r.count = top;
  // The window is at least T (docs/fft_advisor.md#combination-and-the-proximity-window). Without an
  // explicit window find looks at the max(10, count, 2T) closest sizes: on the G1 problems that
  // raised the autotuned mean speedup over naive 2^a3^b5^c7^d padding for slightly more padding
  // (docs/performance.md#fft-advisor-and-tuning).
  r.window = req.window > 0 ? std::max(req.window, top) : std::max(detail::proximity_window(req), 2 * top);
  return measure_and_rank(recommend(r, profile, scratch), original_configuration(req, profile, scratch), measurer,
                          protocol);
}

FindResult benchmark(const AdvisorRequest& req, const Profile& profile, const ScratchModel& scratch,
                     Measurer& measurer, const Protocol& protocol) {
  detail::validate_request(req);
  // The problem as is: no size change, no reordering; only the option flags vary.
  AdvisorRequest r = req;
  r.resize = Resize::Keep;
  r.max_change_pct.reset();
  r.parity = {Parity::Any, Parity::Any, Parity::Any};
  r.square_only = false;
  r.allow_rotation = false;
  r.allow_transposition = false;
  r.window = 1;
  r.count = 1 << 16; // every combination (at most 2 x 3 x 2 x 2 x 2)
  return measure_and_rank(recommend(r, profile, scratch), original_configuration(r, profile, scratch), measurer,
                          protocol);
}

} // namespace frost::fft
