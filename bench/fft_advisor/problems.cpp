// frost_bench_fft_advisor: problem generators (docs/fft_advisor.md#gpu-validation), nearest
// recommended sizes, statistics and the per-problem measurement cache.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench_advisor.hpp"
#include "frost/fft/heuristic.hpp"

namespace frost::bench {

std::uint64_t Rng::next() {
  // SplitMix64: full period over 2^64, good enough for drawing problem parameters.
  std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::int64_t Rng::uniform_int(std::int64_t lo, std::int64_t hi) {
  if (hi <= lo) return lo;
  const std::uint64_t range = static_cast<std::uint64_t>(hi - lo) + 1;
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % range; // reject the biased tail
  std::uint64_t v;
  do v = next();
  while (v >= limit);
  return lo + static_cast<std::int64_t>(v % range);
}

double Rng::unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

double Rng::log_uniform(double lo, double hi) {
  return std::exp(std::log(lo) + unit() * (std::log(hi) - std::log(lo)));
}

Problem make_g1_problem(Rng& rng, int id, double min_total, double max_total, bool allow_f64) {
  Problem p;
  p.id = id;
  p.label = "g1";
  fft::AdvisorRequest& r = p.request;
  const index_t batch = rng.uniform_int(1, 6);
  const index_t total = rng.uniform_int(static_cast<std::int64_t>(std::ceil(min_total)),
                                        static_cast<std::int64_t>(std::floor(max_total)));
  r.size = {std::max<index_t>(1, total / batch), 1, 1};
  r.signals = batch;
  const bool f64 = rng.coin();
  r.precisions = {allow_f64 && f64 ? fft::Precision::F64 : fft::Precision::F32};
  const bool real = rng.coin(), forward = rng.coin();
  // The paper draws real/complex and forward/inverse: real forward = R2C, real inverse = C2R.
  r.kinds = {real ? (forward ? fft::Kind::R2C : fft::Kind::C2R) : fft::Kind::C2C};
  r.directions = {forward ? fft::Direction::Forward : fft::Direction::Inverse};
  r.placements = {rng.coin() ? fft::Placement::InPlace : fft::Placement::OutOfPlace};
  r.batched = {rng.coin()};
  r.resize = fft::Resize::Pad;
  r.max_change_pct.reset(); // unlimited up to the power-of-two cap ("no limits")
  r.mem_limit_bytes.reset();
  return p;
}

Problem make_g2_problem(Rng& rng, int id, index_t min_side, index_t max_side, double min_total, double max_total,
                        double pad_pct) {
  Problem p;
  p.id = id;
  p.label = "g2";
  fft::AdvisorRequest& r = p.request;
  index_t x = 0, y = 0;
  for (int tries = 0;; ++tries) {
    x = static_cast<index_t>(std::llround(rng.log_uniform(static_cast<double>(min_side), static_cast<double>(max_side))));
    y = static_cast<index_t>(std::llround(rng.log_uniform(static_cast<double>(min_side), static_cast<double>(max_side))));
    if (static_cast<double>(x) * static_cast<double>(y) <= max_total || tries > 1000) break;
  }
  const double xy = static_cast<double>(x) * static_cast<double>(y);
  const index_t lo = std::max<index_t>(1, static_cast<index_t>(std::ceil(min_total / xy)));
  const index_t hi = std::max<index_t>(lo, static_cast<index_t>(std::floor(max_total / xy)));
  r.size = {x, y, 1};
  r.signals = rng.uniform_int(lo, hi);
  r.precisions = {fft::Precision::F32};
  r.kinds = {fft::Kind::R2C};
  r.directions = {fft::Direction::Forward};
  r.placements = {fft::Placement::OutOfPlace};
  r.batched = {true};
  r.resize = fft::Resize::Pad;
  r.max_change_pct = pad_pct;
  r.mem_limit_bytes.reset();
  return p;
}

std::vector<Problem> detector_problems(int first_id) {
  struct Det {
    const char* name;
    index_t x, y;
  };
  const Det dets[] = {{"Falcon 4096x4096", 4096, 4096},
                      {"K2 3838x3710", 3838, 3710},
                      {"K2 super 7676x7420", 7676, 7420},
                      {"K3 5760x4092", 5760, 4092},
                      {"K3 super 11520x8184", 11520, 8184}};
  std::vector<Problem> out;
  int id = first_id;
  for (const Det& d : dets)
    for (int mode = 0; mode < 2; ++mode) {
      Problem p;
      p.id = id++;
      p.label = d.name;
      fft::AdvisorRequest& r = p.request;
      r.size = {d.x, d.y, 1};
      r.signals = 1;
      r.precisions = {fft::Precision::F32};
      r.kinds = {fft::Kind::R2C};
      r.directions = {fft::Direction::Forward};
      r.placements = {fft::Placement::OutOfPlace};
      r.batched = {true};
      // Movie alignment (docs/fft_advisor.md#consumers): frames cropped in Fourier space by up to
      // 10%, correlation buffers padded by up to 20%; square when the detector is square.
      r.resize = mode == 0 ? fft::Resize::Crop : fft::Resize::Pad;
      r.max_change_pct = mode == 0 ? 10.0 : 20.0;
      r.square_only = d.x == d.y;
      r.mem_limit_bytes.reset();
      out.push_back(p);
    }
  return out;
}

namespace {

int distinct_terms(index_t m) {
  int t = 0;
  for (index_t p : {2, 3, 5, 7})
    if (m % p == 0) ++t;
  return t;
}

} // namespace

std::optional<index_t> nearest_recommended(index_t n, int terms) {
  if (n < 1) return std::nullopt;
  index_t cap = 1;
  while (cap < n) cap <<= 1;
  std::optional<index_t> best;
  // All 7-smooth numbers in [n, cap]: nested exponents, integer arithmetic only.
  for (index_t a = 1; a <= cap; a *= 2)
    for (index_t b = a; b <= cap; b *= 3)
      for (index_t c = b; c <= cap; c *= 5)
        for (index_t d = c; d <= cap; d *= 7) {
          if (d < n) continue;
          if (terms > 0 && distinct_terms(d) != terms) continue;
          if (!best || d < *best) best = d;
        }
  return best;
}

Stats stats_of(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  Stats s;
  s.count = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  double sq = 0;
  for (double x : v) sq += (x - s.mean) * (x - s.mean);
  s.std = v.size() > 1 ? std::sqrt(sq / static_cast<double>(v.size() - 1)) : 0.0;
  // Quantiles by linear interpolation between order statistics (numpy's default, as pandas'
  // describe() used for the paper's tables).
  const auto q = [&](double f) {
    const double pos = f * static_cast<double>(v.size() - 1);
    const std::size_t i = static_cast<std::size_t>(std::floor(pos));
    const std::size_t j = std::min(i + 1, v.size() - 1);
    return v[i] + (pos - static_cast<double>(i)) * (v[j] - v[i]);
  };
  s.min = v.front();
  s.q25 = q(0.25);
  s.median = q(0.5);
  s.q75 = q(0.75);
  s.max = v.back();
  return s;
}

std::string config_key(const fft::Candidate& c) {
  const index_t per_exec = c.batched ? c.batch : 1;
  const fft::Direction dir = c.kind == fft::Kind::R2C   ? fft::Direction::Forward
                             : c.kind == fft::Kind::C2R ? fft::Direction::Inverse
                                                        : c.direction;
  char buf[200];
  std::snprintf(buf, sizeof buf, "%lldx%lldx%lld|%lld|%d|%d|%d|%d|%d", static_cast<long long>(c.size.x),
                static_cast<long long>(c.size.y), static_cast<long long>(c.size.z), static_cast<long long>(per_exec),
                static_cast<int>(c.precision), static_cast<int>(c.kind), static_cast<int>(dir),
                static_cast<int>(c.placement), c.batched ? 1 : 0);
  return buf;
}

fft::Measurement CachingMeasurer::measure(const fft::Candidate& c, const fft::Protocol& p) {
  const std::string key = config_key(c);
  auto it = cache_.find(key);
  if (it != cache_.end()) {
    charged_s_ += it->second.wall_s;
    return it->second.m;
  }
  const Clock::time_point t0 = Clock::now();
  Entry e;
  try {
    e.m = inner_.measure(c, p);
  } catch (const std::exception& ex) { // measurers must not throw; be defensive anyway
    e.m = fft::Measurement{};
    e.m.status = "error";
    e.m.error = ex.what();
  }
  e.wall_s = seconds_since(t0);
  ++fresh_;
  if (!e.m.ok()) ++failed_;
  charged_s_ += e.wall_s;
  fresh_s_ += e.wall_s;
  cache_.emplace(key, e);
  return e.m;
}

} // namespace frost::bench
