// Planner: the plan cache shared by every backend.
#include "frost/fft/planner.hpp"

#include "frost/fft/backend.hpp"

namespace frost::fft {

namespace {

/// Orders rigors by search effort. A WisdomOnly plan came from wisdom of Measure or better.
int strength_of(FftRigor r) {
  switch (r) {
    case FftRigor::Estimate: return 0;
    case FftRigor::Measure: return 1;
    case FftRigor::Patient: return 2;
    case FftRigor::Exhaustive: return 3;
    case FftRigor::WisdomOnly: return 1;
  }
  return 0;
}

} // namespace

Planner::~Planner() = default;

std::size_t Planner::KeyHash::operator()(const Key& k) const noexcept {
  std::size_t h = hash_value(k.spec);
  h ^= (static_cast<std::size_t>(k.preserve_input) | static_cast<std::size_t>(k.external_workspace) << 1 |
        static_cast<std::size_t>(k.threads) << 2) *
       0x9e3779b97f4a7c15ull;
  return h;
}

FftPlan Planner::plan(const FftSpec& spec, const PlanOptions& opts) {
  FftPlan p = try_plan(spec, opts);
  if (!p)
    detail::spec_error(spec, "no FFTW wisdom covers this transform (rigor wisdom-only); import a "
                             "wisdom file or plan with estimate/measure");
  return p;
}

FftPlan Planner::try_plan(const FftSpec& spec, const PlanOptions& opts) {
  spec.validate();
  if (opts.preserve_input && spec.placement == Placement::InPlace)
    detail::spec_error(spec, "preserve_input needs an out-of-place plan (in place, the output "
                             "overwrites the input by definition)");
  const PlanOptions used = normalize(opts);
  const Key key{spec, used.preserve_input, used.external_workspace, used.threads};
  // The lock is held while planning: FFTW planning is serialised process-wide anyway, and this
  // guarantees one spec is planned once even when threads ask for it at the same moment.
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = cache_.find(key);
  const bool wisdom_only = used.rigor == FftRigor::WisdomOnly;
  if (it != cache_.end() && (wisdom_only || it->second.strength >= strength_of(used.rigor)))
    return FftPlan(it->second.plan);
  std::shared_ptr<const PlanImpl> made = create(spec, used);
  if (!made) return FftPlan();
  cache_[key] = Entry{made, strength_of(used.rigor)};
  return FftPlan(std::move(made));
}

std::size_t Planner::cached_plans() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cache_.size();
}

void Planner::clear_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  cache_.clear();
}

} // namespace frost::fft
