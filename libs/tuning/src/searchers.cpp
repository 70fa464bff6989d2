// The searchers (docs/tune.md#searchers). Random numbers come only from SplitMix64 (docs/tune.md#determinism)
// and are drawn in a fixed order, so a seed and a sequence of reported times determine the path.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "frost/core/error.hpp"
#include "frost/tuning/random.hpp"
#include "frost/tuning/searcher.hpp"

namespace frost::tuning {

const char* to_string(SearcherKind kind) {
  switch (kind) {
  case SearcherKind::Exhaustive: return "exhaustive";
  case SearcherKind::Random: return "random";
  case SearcherKind::Annealing: return "annealing";
  case SearcherKind::Mcmc: return "mcmc";
  }
  return "?";
}

SearcherKind parse_searcher(const std::string& text) {
  for (SearcherKind k : {SearcherKind::Exhaustive, SearcherKind::Random, SearcherKind::Annealing, SearcherKind::Mcmc})
    if (text == to_string(k)) return k;
  throw_usage_error("unknown tuning searcher '" + text + "' (expected random, annealing, mcmc or exhaustive)");
}

namespace {

constexpr double kInvalid = std::numeric_limits<double>::infinity();

/// Bookkeeping every searcher shares: which configurations were measured, their times
/// (+inf for invalid ones), and the check that report() answers the last next().
class SearcherBase : public Searcher {
public:
  explicit SearcherBase(const std::vector<Configuration>& configs)
      : configs_(configs), times_(configs.size(), kInvalid), evaluated_(configs.size(), false),
        unevaluated_(configs.size()) {
    FROST_EXPECTS(!configs.empty(), "a tuning search needs at least one configuration");
  }

  std::optional<std::size_t> next() final {
    FROST_EXPECTS(!pending_, "Searcher::next() called before the previous configuration was reported");
    if (unevaluated_ == 0) return std::nullopt;
    const auto i = choose();
    if (i) {
      FROST_EXPECTS(*i < configs_.size() && !evaluated_[*i], "searcher chose a measured configuration");
      pending_ = i;
    }
    return i;
  }

  void report(std::size_t index, std::optional<double> ms) final {
    FROST_EXPECTS(pending_ && *pending_ == index, "Searcher::report() does not answer the last next()");
    pending_.reset();
    const double t = ms && std::isfinite(*ms) ? *ms : kInvalid;
    times_[index] = t;
    evaluated_[index] = true;
    --unevaluated_;
    observe(index, t);
  }

protected:
  virtual std::optional<std::size_t> choose() = 0;
  virtual void observe(std::size_t index, double ms) = 0;

  /// The k-th unevaluated configuration in index order, k uniform.
  std::size_t random_unevaluated(SplitMix64& rng) const {
    std::uint64_t k = rng.below(unevaluated_);
    for (std::size_t i = 0; i < configs_.size(); ++i)
      if (!evaluated_[i] && k-- == 0) return i;
    FROST_THROW(ExitCode::Runtime, "no unevaluated configuration left");
  }

  /// Number of parameters in which two configurations differ, counted up to `limit` + 1.
  std::size_t differences(std::size_t a, std::size_t b, std::size_t limit) const {
    std::size_t d = 0;
    for (std::size_t p = 0; p < configs_[a].size() && d <= limit; ++p) d += configs_[a][p] != configs_[b][p];
    return d;
  }

  /// Valid known configurations, deduplicated, in the given order.
  std::vector<std::size_t> usable_known(const std::vector<std::size_t>& known) const {
    std::vector<std::size_t> out;
    for (std::size_t k : known)
      if (k < configs_.size() && std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    return out;
  }

  const std::vector<Configuration>& configs_;
  std::vector<double> times_;
  std::vector<bool> evaluated_;
  std::size_t unevaluated_;
  std::optional<std::size_t> pending_;
};

// ---- exhaustive ----------------------------------------------------------------------------

class ExhaustiveSearcher final : public SearcherBase {
public:
  using SearcherBase::SearcherBase;
  SearcherKind kind() const override { return SearcherKind::Exhaustive; }

private:
  std::optional<std::size_t> choose() override { return next_++; }
  void observe(std::size_t, double) override {}
  std::size_t next_ = 0;
};

// ---- random --------------------------------------------------------------------------------

class RandomSearcher final : public SearcherBase {
public:
  RandomSearcher(const std::vector<Configuration>& configs, const SearcherSetup& setup) : SearcherBase(configs) {
    SplitMix64 rng(setup.seed);
    std::vector<std::size_t> perm(configs.size());
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
    // Fisher-Yates from the last index down.
    for (std::size_t i = perm.size() - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(i + 1)]);
    order_ = usable_known(setup.known);
    for (std::size_t i : perm)
      if (std::find(order_.begin(), order_.end(), i) == order_.end()) order_.push_back(i);
  }
  SearcherKind kind() const override { return SearcherKind::Random; }

private:
  std::optional<std::size_t> choose() override { return order_[next_++]; }
  void observe(std::size_t, double) override {}
  std::vector<std::size_t> order_;
  std::size_t next_ = 0;
};

// ---- simulated annealing -------------------------------------------------------------------

class AnnealingSearcher final : public SearcherBase {
public:
  AnnealingSearcher(const std::vector<Configuration>& configs, const SearcherSetup& setup)
      : SearcherBase(configs), rng_(setup.seed) {
    const auto known = usable_known(setup.known);
    if (!known.empty()) start_ = known.front();
  }
  SearcherKind kind() const override { return SearcherKind::Annealing; }

private:
  /// After this many proposals in a row that hit measured configurations, jump to an unmeasured
  /// one: guarantees progress however the neighbourhoods are filled.
  static constexpr int kMaxLookups = 1000;

  std::optional<std::size_t> choose() override {
    if (!current_) {
      restart_ = true;
      return start_ && !evaluated_[*start_] ? *start_ : random_unevaluated(rng_);
    }
    for (int lookups = 0; lookups < kMaxLookups; ++lookups) {
      const std::vector<std::size_t>& n = neighbours(*current_);
      const bool any_new = std::any_of(n.begin(), n.end(), [&](std::size_t i) { return !evaluated_[i]; });
      if (!any_new) break;
      const std::size_t candidate = n[rng_.below(n.size())];
      if (!evaluated_[candidate]) return candidate;
      step(candidate, times_[candidate]); // never re-measured: its time is looked up
    }
    restart_ = true; // the neighbourhood is used up: continue from a fresh point
    return random_unevaluated(rng_);
  }

  void observe(std::size_t index, double ms) override {
    if (restart_) {
      restart_ = false;
      current_ = index;
      current_ms_ = ms;
      since_best_ = 0;
      if (!best_ || ms < best_ms_) {
        best_ = index;
        best_ms_ = ms;
      }
      return;
    }
    step(index, ms);
  }

  /// One annealing step from the current configuration to `candidate` with time `ms`.
  void step(std::size_t candidate, double ms) {
    const double temperature = temperature_;
    temperature_ *= kAnnealingCooling; // T_k = T_0 0.95^k by repeated multiplication (exact in IEEE)
    bool accept = ms <= current_ms_;
    if (!accept && std::isfinite(ms) && std::isfinite(current_ms_) && current_ms_ > 0)
      accept = rng_.unit() < std::exp(-(ms - current_ms_) / (temperature * current_ms_));
    if (accept) {
      current_ = candidate;
      current_ms_ = ms;
    }
    if (!best_ || ms < best_ms_) {
      best_ = candidate;
      best_ms_ = ms;
      since_best_ = 0;
    } else if (++since_best_ >= kAnnealingStepsToBest) {
      current_ = best_;
      current_ms_ = best_ms_;
      since_best_ = 0;
    }
  }

  /// Valid configurations differing from `c` in exactly one parameter, or, if there are none,
  /// in exactly two (in index order).
  const std::vector<std::size_t>& neighbours(std::size_t c) {
    auto it = neighbours_.find(c);
    if (it != neighbours_.end()) return it->second;
    std::vector<std::size_t> one, two;
    for (std::size_t i = 0; i < configs_.size(); ++i) {
      const std::size_t d = differences(c, i, 2);
      if (d == 1) one.push_back(i);
      else if (d == 2) two.push_back(i);
    }
    return neighbours_.emplace(c, one.empty() ? std::move(two) : std::move(one)).first->second;
  }

  SplitMix64 rng_;
  std::optional<std::size_t> start_, current_, best_;
  double current_ms_ = kInvalid, best_ms_ = kInvalid;
  double temperature_ = kAnnealingT0;
  int since_best_ = 0;
  bool restart_ = false;
  std::unordered_map<std::size_t, std::vector<std::size_t>> neighbours_;
};

// ---- MCMC (KTT) ----------------------------------------------------------------------------

class McmcSearcher final : public SearcherBase {
public:
  McmcSearcher(const std::vector<Configuration>& configs, const SearcherSetup& setup)
      : SearcherBase(configs), rng_(setup.seed) {
    const auto known = usable_known(setup.known);
    if (!known.empty()) start_ = known.front();
    boot_left_ = start_ ? 0 : kMcmcBootSteps; // KTT boots only without a starting point
  }
  SearcherKind kind() const override { return SearcherKind::Mcmc; }

private:
  std::optional<std::size_t> choose() override {
    if (!started_) {
      started_ = true;
      if (start_) return *start_;
      return random_unevaluated(rng_);
    }
    if (boot_left_ > 0 || !origin_) return random_unevaluated(rng_);
    std::vector<std::size_t> n;
    for (std::size_t i = 0; i < configs_.size(); ++i)
      if (!evaluated_[i] && differences(*origin_, i, kMcmcMaxDifferences) <= kMcmcMaxDifferences) n.push_back(i);
    if (n.empty()) {
      origin_.reset(); // no unexplored neighbour: restart at a random unexplored point
      return random_unevaluated(rng_);
    }
    return n[rng_.below(n.size())];
  }

  void observe(std::size_t index, double ms) override {
    if (boot_left_ > 0) {
      --boot_left_;
      if (!origin_ || ms <= times_[*origin_]) origin_ = index; // boot: the origin is the best so far
      return;
    }
    // Accept if not slower, else escape with a small probability (drawn only then).
    if (!origin_ || ms <= times_[*origin_] || rng_.unit() < kMcmcEscapeProbability) origin_ = index;
  }

  SplitMix64 rng_;
  std::optional<std::size_t> start_, origin_;
  int boot_left_ = 0;
  bool started_ = false;
};

} // namespace

std::unique_ptr<Searcher> make_searcher(SearcherKind kind, const std::vector<Configuration>& configs,
                                        const SearcherSetup& setup) {
  switch (kind) {
  case SearcherKind::Exhaustive: return std::make_unique<ExhaustiveSearcher>(configs);
  case SearcherKind::Random: return std::make_unique<RandomSearcher>(configs, setup);
  case SearcherKind::Annealing: return std::make_unique<AnnealingSearcher>(configs, setup);
  case SearcherKind::Mcmc: return std::make_unique<McmcSearcher>(configs, setup);
  }
  FROST_THROW(ExitCode::Runtime, "unknown searcher kind");
}

} // namespace frost::tuning
