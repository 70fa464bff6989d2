// C2 and C5 (docs/fft_advisor.md#cpu-tests): per-dimension candidate sets checked against a brute-force
// scan, the kernel filter checked against an independent computation, and full recommend runs
// checked for smoothness, parity, windows, proximity and duplicates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <set>

#include "frost/fft/heuristic.hpp"
#include "heuristic_test_util.hpp"

namespace frost::fft {
namespace {

using test::admissible_parity;
using test::sieve_for;

constexpr index_t kMaxN = index_t{1} << 24;

/// One random draw of the property test.
struct Draw {
  index_t n = 2;
  std::optional<int> p; ///< empty: unlimited
  Precision precision = Precision::F32;
  Kind kind = Kind::R2C;
  Parity parity = Parity::Any;
};

/// Draws from a fixed-seed generator with explicit arithmetic (no std distributions, whose output
/// differs between standard libraries).
class Draws {
public:
  explicit Draws(std::uint64_t seed) : rng_(seed) {}
  double uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  std::uint64_t below(std::uint64_t n) { return rng_() % n; }
  /// n log-uniform in [lo, hi].
  index_t log_uniform(index_t lo, index_t hi) {
    const double v = std::exp(std::log(double(lo)) + uniform() * (std::log(double(hi)) - std::log(double(lo))));
    return std::clamp(static_cast<index_t>(std::llround(v)), lo, hi);
  }
  Draw next() {
    static const std::optional<int> kPercents[] = {0, 1, 5, 10, 20, 50, std::nullopt};
    Draw d;
    d.n = log_uniform(2, kMaxN);
    d.p = kPercents[below(7)];
    d.precision = below(2) ? Precision::F64 : Precision::F32;
    d.kind = static_cast<Kind>(below(3));
    const auto parity = below(10);
    d.parity = parity == 0 ? Parity::Even : parity == 1 ? Parity::Odd : Parity::Any;
    return d;
  }

private:
  std::mt19937_64 rng_;
};

/// The per-dimension window in exact integer arithmetic (p is a whole percentage here).
/// Cropping never goes below 2 for a non-unit dimension (a transformed dimension stays one).
std::pair<index_t, index_t> window(index_t n, Resize mode, std::optional<int> p) {
  if (n == 1) return {1, 1};
  if (mode == Resize::Pad) {
    index_t cap = 1;
    while (cap < n) cap *= 2;
    return {n, p ? std::min(cap, n * (100 + *p) / 100) : cap};
  }
  if (!p) return {2, n};
  const index_t lo = (n * (100 - *p) + 99) / 100;
  return {std::max<index_t>(lo, 2), n};
}

/// F_d (docs/fft_advisor.md#kernel-filter) computed independently of filter_dimension.
std::vector<index_t> expected_filter(const std::vector<index_t>& c, index_t n, const Profile& profile,
                                     Precision precision) {
  if (c.empty()) return {};
  std::vector<int> k;
  for (index_t m : c) k.push_back(kernel_estimate(m, profile, precision));
  const int k_min = *std::min_element(k.begin(), k.end());
  // Closest: the smallest |m - n|; pad lists lie above n and crop lists below, so no ties.
  index_t best = c[0];
  for (index_t m : c)
    if (std::llabs(m - n) < std::llabs(best - n)) best = m;
  std::set<index_t> f{best};
  for (std::size_t i = 0; i < c.size(); ++i)
    if (k[i] <= k_min + 2) f.insert(c[i]);
  return {f.begin(), f.end()};
}

// 10,000 draws x {pad, crop} per profile (one test per profile, so ctest can run them in
// parallel) on the per-dimension functions, each compared with a full scan of the window over an
// independently built sieve. Full recommend runs on fewer draws below (it costs more).
class HeuristicRandomisedCandidates : public ::testing::TestWithParam<std::string> {};

TEST_P(HeuristicRandomisedCandidates, PropertiesAgainstBruteForce) {
  const std::string name = GetParam();
  const Profile& profile = builtin_profile(name);
  const auto& sieve = sieve_for(name);
  Draws draws(20260101);
  std::size_t checked = 0;
  for (int i = 0; i < 10000; ++i) {
    const Draw d = draws.next();
    {
      for (Resize mode : {Resize::Pad, Resize::Crop}) {
        AdvisorRequest req = test::request({d.n, 1, 1}, mode, d.p ? std::optional<double>(*d.p) : std::nullopt);
        req.parity[0] = d.parity;
        req.kinds = {d.kind};
        req.precisions = {d.precision};
        const auto c = dimension_candidates(req, profile, 0, d.precision, d.kind);
        const std::string trace = name + (mode == Resize::Pad ? " pad" : " crop") + " n=" + std::to_string(d.n) +
                                  " p=" + (d.p ? std::to_string(*d.p) : "unlimited") + " parity=" +
                                  std::to_string(int(d.parity)) + " kind=" + std::to_string(int(d.kind)) +
                                  " prec=" + std::to_string(int(d.precision));
        if (d.p && *d.p == 0) {
          // Max change 0 means keep: the size itself, smooth or not, unless the explicit parity
          // contradicts it.
          const bool conflict = (d.parity == Parity::Even && d.n % 2) || (d.parity == Parity::Odd && d.n % 2 == 0);
          ASSERT_EQ(c, conflict ? std::vector<index_t>{} : std::vector<index_t>{d.n}) << trace;
          continue;
        }
        const auto [lo, hi] = window(d.n, mode, d.p);
        std::vector<index_t> brute;
        for (index_t m : sieve.scan(lo, hi))
          if (admissible_parity(m, d.parity, name, d.precision, d.kind)) brute.push_back(m);
        // Enumeration equals the brute-force scan: this also proves smoothness, parity, the window,
        // ascending order without duplicates and the presence of the closest admissible size.
        ASSERT_EQ(c, brute) << trace;
        // The sieve already proves smoothness; the library's own is_smooth is cross-checked on
        // every eighth draw (it dominates the run time otherwise).
        for (std::size_t j = 0; j < c.size(); ++j) {
          if (i % 8 == 0) {
            ASSERT_TRUE(is_smooth(c[j], profile)) << trace << " m=" << c[j];
          }
          ASSERT_TRUE(j == 0 || c[j - 1] < c[j]) << trace;
          ASSERT_TRUE(c[j] >= lo && c[j] <= hi) << trace;
        }
        // C5: F_d = {closest} + {k <= k_min + 2}.
        const auto f = filter_dimension(c, d.n, profile, d.precision);
        ASSERT_EQ(f, expected_filter(c, d.n, profile, d.precision)) << trace;
        if (!brute.empty()) {
          const index_t closest = mode == Resize::Pad ? brute.front() : brute.back();
          ASSERT_TRUE(std::binary_search(f.begin(), f.end(), closest)) << trace;
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 15000u);
}

INSTANTIATE_TEST_SUITE_P(C2, HeuristicRandomisedCandidates,
                         ::testing::Values("cuda12", "cuda8", "portable", "fftw"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

/// Checks one recommend result against the request's windows and the profile.
void check_result(const AdvisorRequest& req, const Profile& profile, const std::vector<Candidate>& cs,
                  const std::string& trace) {
  const index_t total = req.size.elements();
  std::set<std::string> seen;
  for (const Candidate& c : cs) {
    ASSERT_TRUE(seen.insert(to_string(c.size)).second) << trace << " duplicate " << to_string(c.size);
    const index_t e = c.size.elements();
    const std::optional<int> p =
        req.max_change_pct ? std::optional<int>(static_cast<int>(*req.max_change_pct)) : std::nullopt;
    index_t cap = 1;
    for (int d = 0; d < 3; ++d) {
      const index_t n = req.size[d], m = c.size[d];
      const auto [lo, hi] = window(n, req.resize, p);
      if (n > 1) {
        ASSERT_TRUE(is_smooth(m, profile)) << trace << " " << to_string(c.size);
        ASSERT_TRUE(admissible_parity(m, req.parity[static_cast<std::size_t>(d)], profile.name, c.precision, c.kind))
            << trace << " " << to_string(c.size);
      }
      ASSERT_TRUE(m >= lo && m <= hi) << trace << " dimension " << d << " of " << to_string(c.size);
      cap *= hi;
    }
    if (req.resize == Resize::Pad) {
      ASSERT_GE(e, total) << trace;
      ASSERT_LE(e, cap) << trace;
      if (p) {
        ASSERT_LE(e, total * (100 + *p) / 100) << trace;
      }
    } else {
      ASSERT_LE(e, total) << trace;
      if (p) {
        ASSERT_GE(e * 100, total * (100 - *p)) << trace;
      }
    }
  }
}

// Full recommend on a tenth of the 1D draws (recommend costs more than the per-dimension
// functions): windows, smoothness, parity, no duplicates, and the closest admissible size present.
TEST(HeuristicCandidates, RecommendRespectsWindowsOneDimensional) {
  Draws draws(20260102);
  auto scratch = worst_case_scratch_model();
  for (int i = 0; i < 1000; ++i) {
    Draw d = draws.next();
    if (d.p && *d.p == 0) d.p = 1; // max change 0 is the identity test's subject
    for (const std::string& name : builtin_profile_names()) {
      const Profile& profile = builtin_profile(name);
      for (Resize mode : {Resize::Pad, Resize::Crop}) {
        AdvisorRequest req = test::request({d.n, 1, 1}, mode, d.p ? std::optional<double>(*d.p) : std::nullopt);
        req.parity[0] = d.parity;
        req.kinds = {d.kind};
        req.precisions = {d.precision};
        const std::string trace = name + (mode == Resize::Pad ? " pad" : " crop") + " n=" + std::to_string(d.n) +
                                  " p=" + (d.p ? std::to_string(*d.p) : "unlimited");
        const auto [lo, hi] = window(d.n, mode, d.p);
        std::vector<index_t> admissible;
        for (index_t m : sieve_for(name).scan(lo, hi))
          if (admissible_parity(m, d.parity, name, d.precision, d.kind)) admissible.push_back(m);
        if (admissible.empty()) {
          EXPECT_THROW(recommend(req, profile, *scratch), NoCandidate) << trace;
          continue;
        }
        const auto cs = recommend(req, profile, *scratch);
        ASSERT_FALSE(cs.empty()) << trace;
        // One option combination: the result is the whole proximity window of W = 10 sizes of F_d.
        const auto f = filter_dimension(admissible, d.n, profile, d.precision);
        ASSERT_EQ(cs.size(), std::min<std::size_t>(10, f.size())) << trace;
        check_result(req, profile, cs, trace);
        const index_t closest = mode == Resize::Pad ? admissible.front() : admissible.back();
        ASSERT_TRUE(std::any_of(cs.begin(), cs.end(), [&](const Candidate& c) { return c.size.x == closest; }))
            << trace;
      }
    }
  }
}

// 2D and 3D: the proximity window equals a brute-force enumeration of F_X x F_Y (x F_Z) sorted by
// |xyz - XYZ| then x, y, z (this checks the pruned search of recommend).
TEST(HeuristicCandidates, ProximityWindowEqualsBruteForceMultiDimensional) {
  Draws draws(20260103);
  auto scratch = worst_case_scratch_model();
  for (int i = 0; i < 300; ++i) {
    const bool three = i % 3 == 0;
    const Extent size{draws.log_uniform(2, three ? 300 : 3000), draws.log_uniform(2, three ? 300 : 3000),
                      three ? draws.log_uniform(2, 300) : 1};
    static const std::optional<double> kPercents[] = {1, 5, 10, 20, 50, std::nullopt};
    const std::optional<double> p = kPercents[draws.below(6)];
    for (const std::string& name : builtin_profile_names()) {
      const Profile& profile = builtin_profile(name);
      for (Resize mode : {Resize::Pad, Resize::Crop}) {
        if (three && mode == Resize::Crop && !p) continue; // brute force over [1, n]^3 is too slow
        AdvisorRequest req = test::request(size, mode, p, 10);
        const std::string trace = name + (mode == Resize::Pad ? " pad " : " crop ") + to_string(size) +
                                  " p=" + (p ? std::to_string(*p) : "unlimited");
        std::array<std::vector<index_t>, 3> f;
        bool empty = false;
        for (int d = 0; d < 3; ++d) {
          f[static_cast<std::size_t>(d)] = filter_dimension(dimension_candidates(req, profile, d, Precision::F32, Kind::R2C),
                                                            size[d], profile, Precision::F32);
          empty = empty || f[static_cast<std::size_t>(d)].empty();
        }
        const long double total = static_cast<long double>(size.elements());
        long double cap = 1;
        for (int d = 0; d < 3; ++d) cap *= window(size[d], mode, p ? std::optional<int>(int(*p)) : std::nullopt).second;
        std::vector<std::tuple<long double, index_t, index_t, index_t>> all;
        if (!empty)
          for (index_t x : f[0])
            for (index_t y : f[1])
              for (index_t z : f[2]) {
                const long double e = static_cast<long double>(x) * y * z;
                const bool inside = mode == Resize::Pad
                                        ? e >= total && e <= cap && (!p || e <= std::floor(total * (100 + *p) / 100))
                                        : e <= total && (!p || e >= std::ceil(total * (100 - *p) / 100));
                if (inside) all.emplace_back(std::fabs(e - total), x, y, z);
              }
        std::sort(all.begin(), all.end());
        if (all.size() > 10) all.resize(10);
        std::set<std::string> expected;
        for (const auto& t : all)
          expected.insert(to_string(Extent{std::get<1>(t), std::get<2>(t), std::get<3>(t)}));
        if (expected.empty()) {
          EXPECT_THROW(recommend(req, profile, *scratch), NoCandidate) << trace;
          continue;
        }
        const auto cs = recommend(req, profile, *scratch);
        const auto got = test::shapes(cs);
        ASSERT_EQ(std::set<std::string>(got.begin(), got.end()), expected) << trace;
        check_result(req, profile, cs, trace);
      }
    }
  }
}

TEST(HeuristicCandidates, ExplicitOddParityOverridesEvenRule) {
  AdvisorRequest req = test::request({6000, 1, 1}, Resize::Pad, 10.0);
  req.parity[0] = Parity::Odd;
  const auto c = dimension_candidates(req, builtin_profile("cuda8"), 0, Precision::F32, Kind::R2C);
  ASSERT_FALSE(c.empty());
  for (index_t m : c) EXPECT_EQ(m % 2, 1) << m; // cuda8 is "always even" but odd was asked for
  EXPECT_EQ(c.front(), 6075);                   // 3^5 x 5^2
}

TEST(HeuristicCandidates, EmptyWindowNamesTheDimension) {
  auto scratch = worst_case_scratch_model();
  // 2273 is prime: crop by 0.01 % leaves [2273, 2273], which holds no smooth size.
  AdvisorRequest req = test::request({64, 2273, 1}, Resize::Crop, 0.01);
  EXPECT_TRUE(dimension_candidates(req, builtin_profile("cuda12"), 1, Precision::F32, Kind::R2C).empty());
  try {
    recommend(req, builtin_profile("cuda12"), *scratch);
    FAIL() << "expected NoCandidate";
  } catch (const NoCandidate& e) {
    EXPECT_EQ(e.code(), ExitCode::Runtime);
    EXPECT_NE(std::string(e.what()).find("dimension y"), std::string::npos) << e.what();
  }
}

// Cropping without a limit reaches down to 2, never to 1: a unit size would change the rank, and
// its zero estimate would pull the filter's minimum down so far that only far-away sizes survive.
TEST(HeuristicCandidates, CropNeverCollapsesADimension) {
  AdvisorRequest req = test::request({index_t{1} << 20, 1, 1}, Resize::Crop);
  for (const std::string& name : builtin_profile_names()) {
    const Profile& profile = builtin_profile(name);
    const auto c = dimension_candidates(req, profile, 0, Precision::F32, Kind::C2C);
    ASSERT_FALSE(c.empty());
    EXPECT_EQ(c.front(), 2) << name;
    auto scratch = worst_case_scratch_model();
    const auto cs = recommend(req, profile, *scratch);
    EXPECT_EQ(cs.front().size.x, index_t{1} << 20) << name;
    for (const Candidate& k : cs) EXPECT_GT(k.size.x, index_t{1} << 19) << name;
  }
}

TEST(HeuristicCandidates, UnitAndKeptDimensions) {
  AdvisorRequest req = test::request({2273, 2273, 1}, Resize::Pad, 10.0);
  req.optimize_dims = 1; // only X may change, even though X == Y (defect 5 of docs/fft_advisor.md#defects-of-the-reference-we-do-not-copy)
  const Profile& cuda12 = builtin_profile("cuda12");
  EXPECT_EQ(dimension_candidates(req, cuda12, 1, Precision::F32, Kind::R2C), std::vector<index_t>{2273});
  EXPECT_EQ(dimension_candidates(req, cuda12, 2, Precision::F32, Kind::R2C), std::vector<index_t>{1});
  EXPECT_GT(dimension_candidates(req, cuda12, 0, Precision::F32, Kind::R2C).size(), 1u);
  auto scratch = worst_case_scratch_model();
  const auto cs = recommend(req, cuda12, *scratch);
  ASSERT_FALSE(cs.empty());
  EXPECT_EQ(cs.front().size, (Extent{2304, 2273, 1}));
  EXPECT_EQ(cs.front().kernels[1], kBadKernels); // kept although not smooth, finite estimate
  EXPECT_EQ(cs.front().kernels[2], 0);
}

} // namespace
} // namespace frost::fft
