// T4 of docs/tune.md#cpu-tests: deterministic search. Golden lists are indices into the canonical
// enumeration (T1 fixes that order), for seed 0x5eed combined with a fixed key per space. They
// were reproduced by an independent implementation of the searchers (reference_search.py here).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "frost/core/error.hpp"
#include "frost/tuning/kernel_spaces.hpp"
#include "frost/tuning/phase.hpp"
#include "frost/tuning/random.hpp"
#include "frost/tuning/searcher.hpp"
#include "tuning_test_util.hpp"

namespace frost::tuning {
namespace {

using Path = std::vector<std::size_t>;

FrInsertSettings dynamic_interp() {
  FrInsertSettings s;
  s.lookup_interpolation = false;
  return s;
}

std::map<std::string, KernelSpace> golden_spaces() {
  const DeviceLimits l; // 1024 threads, 48 KiB
  std::map<std::string, KernelSpace> m;
  m.emplace("fr_insert_dynamic", fr_insert_space(l, dynamic_interp()));
  m.emplace("fr_insert_lookup", fr_insert_space(l, FrInsertSettings{}));
  m.emplace("ma_correlate", ma_correlate_space(l));
  m.emplace("fourier_crop_filter", fourier_crop_filter_space(l));
  m.emplace("extrema_window", extrema_window_space(l));
  m.emplace("extrema_full", extrema_full_space(l));
  return m;
}

/// The fixed record key of a space: its kernel on the test H100 for a 128 x 128 problem.
std::string fixed_key(const KernelSpace& k) {
  TuningKey key = test::make_key(k.kernel, k.space.signature(), "size=128x128");
  key.kernel.version = k.space.kernel_version();
  return key.str();
}

/// The first `n` configurations a searcher proposes when every one is reported with the
/// synthetic cost (invalid ones as failures).
Path walk(SearcherKind kind, const KernelSpace& k, const std::vector<Configuration>& configs, std::size_t n,
          std::vector<std::size_t> known = {}) {
  auto s = make_searcher(kind, configs, {search_seed(kDefaultSeed, fixed_key(k)), std::move(known)});
  Path p;
  while (p.size() < n) {
    const auto i = s->next();
    if (!i) break;
    p.push_back(*i);
    s->report(*i, test::synthetic_ms(k.space, configs[*i]));
  }
  return p;
}

TEST(TuningSearchT4, SplitMix64MatchesTheReferenceSequence) {
  // Reference outputs of SplitMix64 (Vigna) for seed 1234567.
  SplitMix64 g(1234567);
  EXPECT_EQ(g.next(), 6457827717110365317ull);
  EXPECT_EQ(g.next(), 3203168211198807973ull);
  EXPECT_EQ(g.next(), 9817491932198370423ull);
  EXPECT_EQ(g.next(), 4593380528125082431ull);
  EXPECT_EQ(g.next(), 16408922859458223821ull);
}

TEST(TuningSearchT4, BoundedAndRealDrawsStayInRange) {
  SplitMix64 g(kDefaultSeed);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(g.below(1), 0u);
    EXPECT_LT(g.below(7), 7u);
    const double u = g.unit();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
  // Rejection sampling: with n = 2^63 + 1, outputs below 2^64 mod n = 2^63 - 1 are redrawn.
  SplitMix64 a(42), b(42);
  const std::uint64_t n = (std::uint64_t(1) << 63) + 1;
  std::uint64_t expect = 0;
  for (;;) {
    const std::uint64_t x = b.next();
    if (x >= (std::uint64_t(1) << 63) - 1) {
      expect = x % n;
      break;
    }
  }
  EXPECT_EQ(a.below(n), expect);
  EXPECT_EQ(search_seed(0x5eed, ""), 0x5eedull ^ 14695981039346656037ull);
}

TEST(TuningSearchT4, RandomSearcherFirstTwentyAreGolden) {
  const std::map<std::string, Path> golden = {
      {"fr_insert_dynamic", {54, 187, 147, 86, 165, 13, 121, 32, 78, 50, 111, 186, 57, 181, 191, 179, 119, 38, 69, 9}},
      {"fr_insert_lookup", {35, 94, 306, 141, 187, 315, 173, 6, 112, 135, 289, 43, 186, 302, 74, 84, 301, 179, 118, 37}},
      {"ma_correlate", {19, 31, 68, 129, 105, 106, 80, 47, 7, 166, 42, 102, 155, 72, 121, 8, 45, 138, 9, 85}},
      {"fourier_crop_filter", {17, 8, 15, 16, 30, 26, 41, 23, 38, 12, 53, 1, 31, 28, 34, 27, 29, 44, 42, 14}},
      {"extrema_window", {13, 10, 25, 34, 28, 30, 35, 12, 7, 21, 16, 5, 1, 11, 20, 22, 24, 27, 9, 26}},
      {"extrema_full", {5, 1, 0, 4, 2, 3}},
  };
  for (const auto& [name, k] : golden_spaces()) {
    const auto configs = k.space.enumerate();
    EXPECT_EQ(walk(SearcherKind::Random, k, configs, 20), golden.at(name)) << name;
  }
}

TEST(TuningSearchT4, ExhaustiveVisitsEveryConfigurationOnceInCanonicalOrder) {
  for (const auto& [name, k] : golden_spaces()) {
    const auto configs = k.space.enumerate();
    const Path p = walk(SearcherKind::Exhaustive, k, configs, configs.size() + 5);
    ASSERT_EQ(p.size(), configs.size()) << name;
    for (std::size_t i = 0; i < p.size(); ++i) EXPECT_EQ(p[i], i);
  }
}

TEST(TuningSearchT4, EverySearcherCoversTheSpaceWithoutRepetition) {
  for (SearcherKind kind : {SearcherKind::Random, SearcherKind::Annealing, SearcherKind::Mcmc}) {
    for (const auto& [name, k] : golden_spaces()) {
      const auto configs = k.space.enumerate();
      const Path p = walk(kind, k, configs, configs.size() + 5);
      EXPECT_EQ(p.size(), configs.size()) << to_string(kind) << " " << name;
      EXPECT_EQ(std::set<std::size_t>(p.begin(), p.end()).size(), p.size()) << to_string(kind) << " " << name;
    }
  }
}

TEST(TuningSearchT4, SameSeedSamePathOtherKeyOtherPath) {
  const auto spaces = golden_spaces();
  const KernelSpace& k = spaces.at("fr_insert_lookup");
  const auto configs = k.space.enumerate();
  for (SearcherKind kind : {SearcherKind::Random, SearcherKind::Annealing, SearcherKind::Mcmc}) {
    EXPECT_EQ(walk(kind, k, configs, 60), walk(kind, k, configs, 60)) << to_string(kind);
    const auto a = make_searcher(kind, configs, {search_seed(kDefaultSeed, "one key"), {}});
    const auto b = make_searcher(kind, configs, {search_seed(kDefaultSeed, "another key"), {}});
    EXPECT_NE(a->next(), b->next()) << to_string(kind);
  }
}

TEST(TuningSearchT4, KnownConfigurationsComeFirst) {
  const auto spaces = golden_spaces();
  const KernelSpace& k = spaces.at("ma_correlate");
  const auto configs = k.space.enumerate();
  const std::size_t def = *index_of(configs, *k.space.from_named(k.default_config));
  const Path random = walk(SearcherKind::Random, k, configs, 20, {def, 3, def});
  ASSERT_GE(random.size(), 2u);
  EXPECT_EQ(random[0], def);
  EXPECT_EQ(random[1], 3u);
  // The rest keeps the order of the permutation.
  Path plain = walk(SearcherKind::Random, k, configs, configs.size());
  plain.erase(std::remove_if(plain.begin(), plain.end(), [&](std::size_t i) { return i == def || i == 3; }), plain.end());
  EXPECT_EQ(Path(random.begin() + 2, random.end()), Path(plain.begin(), plain.begin() + 18));
  EXPECT_EQ(walk(SearcherKind::Annealing, k, configs, 1, {def})[0], def);
  EXPECT_EQ(walk(SearcherKind::Mcmc, k, configs, 1, {def})[0], def);
}

TEST(TuningSearchT4, AnnealingAndMcmcPathsAreGolden) {
  // Driven by the synthetic cost (test::synthetic_ms, with invalid configurations), from the
  // default configuration (index 152) and from a random start.
  const Path annealing_from_default = {152, 144, 308, 309, 291, 292, 295, 319, 238, 230, 214, 65,  262, 226, 270,
                                       342, 228, 260, 212, 126, 134, 183, 180, 20,  68,  234, 346, 174, 158, 124};
  const Path annealing = {76, 188, 82,  64, 288, 229, 225, 209, 61,  257, 224, 185, 179, 67,  203,
                          178, 121, 291, 129, 19, 161, 197, 120, 125, 153, 105, 113, 241, 243, 297};
  const Path mcmc = {76,  97,  281, 42,  131, 132, 371, 217, 38, 105, 111, 27,  188, 261, 333,
                     129, 349, 165, 373, 253, 282, 294, 205, 16, 134, 116, 126, 109, 47,  239};
  const Path mcmc_from_default = {152, 216, 90,  279, 168, 184, 169, 73,  256, 96,  25,  120, 181, 348, 105,
                                  54,  293, 108, 138, 67,  172, 232, 106, 42,  202, 346, 129, 104, 186, 114};
  const auto spaces = golden_spaces();
  const KernelSpace& k = spaces.at("fr_insert_lookup");
  const auto configs = k.space.enumerate();
  const std::size_t def = *index_of(configs, *k.space.from_named(k.default_config));
  ASSERT_EQ(def, 152u);
  EXPECT_EQ(walk(SearcherKind::Annealing, k, configs, 30, {def}), annealing_from_default);
  EXPECT_EQ(walk(SearcherKind::Annealing, k, configs, 30), annealing);
  EXPECT_EQ(walk(SearcherKind::Mcmc, k, configs, 30), mcmc);
  EXPECT_EQ(walk(SearcherKind::Mcmc, k, configs, 30, {def}), mcmc_from_default);
}

TEST(TuningSearchT4, AnnealingMovesToNeighboursAndFindsGoodConfigurations) {
  const auto spaces = golden_spaces();
  const KernelSpace& k = spaces.at("fr_insert_lookup");
  const auto configs = k.space.enumerate();
  const std::size_t def = *index_of(configs, *k.space.from_named(k.default_config));
  const Path p = walk(SearcherKind::Annealing, k, configs, 2, {def});
  ASSERT_EQ(p.size(), 2u);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < configs[def].size(); ++i) differ += configs[def][i] != configs[p[1]][i];
  EXPECT_EQ(differ, 1u); // the first move goes to a neighbour differing in one parameter
  // 100 annealing steps find a configuration within 5% of the synthetic optimum.
  double best = 1e300, found = 1e300;
  for (const Configuration& c : configs)
    if (auto t = test::synthetic_ms(k.space, c)) best = std::min(best, *t);
  for (std::size_t i : walk(SearcherKind::Annealing, k, configs, 100, {def}))
    if (auto t = test::synthetic_ms(k.space, configs[i])) found = std::min(found, *t);
  EXPECT_LE(found, 1.05 * best);
}

TEST(TuningSearchT4, AnnealingAcceptanceAtTheFirstTemperature) {
  // Annealing (docs/tune.md#searchers): at k = 0 a neighbour 10% slower is accepted with probability 0.5.
  EXPECT_NEAR(std::exp(-0.1 / kAnnealingT0), 0.5, 1e-3);
}

TEST(TuningSearchT4, ReportMustAnswerTheLastProposal) {
  const auto configs = fourier_crop_filter_space(DeviceLimits{}).space.enumerate();
  auto s = make_searcher(SearcherKind::Random, configs, {1, {}});
  const auto i = s->next();
  ASSERT_TRUE(i);
  EXPECT_THROW(s->next(), Error);
  EXPECT_THROW(s->report(*i + 1, 1.0), Error);
  s->report(*i, 1.0);
  EXPECT_THROW(make_searcher(SearcherKind::Random, std::vector<Configuration>{}, {}), Error);
}

TEST(TuningSearchT4, SearcherNamesParse) {
  for (SearcherKind k : {SearcherKind::Exhaustive, SearcherKind::Random, SearcherKind::Annealing, SearcherKind::Mcmc})
    EXPECT_EQ(parse_searcher(to_string(k)), k);
  EXPECT_THROW(parse_searcher("genetic"), Error);
}

} // namespace
} // namespace frost::tuning
