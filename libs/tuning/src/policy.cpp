#include "frost/tuning/policy.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/cache/warn_once.hpp"

namespace frost::tuning {

const char* to_string(TunePolicy policy) {
  switch (policy) {
  case TunePolicy::Off: return "off";
  case TunePolicy::Cached: return "cached";
  case TunePolicy::Auto: return "auto";
  case TunePolicy::Dynamic: return "dynamic";
  }
  return "?";
}

TunePolicy parse_tune_policy(const std::string& text) {
  for (TunePolicy p : {TunePolicy::Off, TunePolicy::Cached, TunePolicy::Auto, TunePolicy::Dynamic})
    if (text == to_string(p)) return p;
  if (text == "full") return TunePolicy::Dynamic; // the spelling of the issue
  throw_usage_error("unknown tuning policy '" + text + "' (expected off, cached, auto or dynamic)");
}

std::uint64_t parse_tune_seed(const std::string& text) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string digits = hex ? text.substr(2) : text;
  const bool ok = !digits.empty() && std::all_of(digits.begin(), digits.end(), [hex](char c) {
    return hex ? std::isxdigit(static_cast<unsigned char>(c)) != 0 : std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  errno = 0;
  const unsigned long long v = ok ? std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10) : 0;
  if (!ok || errno == ERANGE) throw_usage_error("bad tuning seed '" + text + "' (expected an integer or 0x... hex)");
  return v;
}

bool uses_cache(TunePolicy policy) { return policy != TunePolicy::Off; }

bool should_tune(TunePolicy policy, ConfigSource source, bool pays) {
  if (source == ConfigSource::Exact || source == ConfigSource::TunedNow) return false;
  switch (policy) {
  case TunePolicy::Off:
  case TunePolicy::Cached: return false;
  case TunePolicy::Auto: return pays;
  case TunePolicy::Dynamic: return true;
  }
  return false;
}

SearcherKind dynamic_searcher(const TuningOptions& options, std::size_t space_size) {
  if (options.searcher) return *options.searcher;
  return static_cast<std::int64_t>(space_size) <= options.budget ? SearcherKind::Exhaustive : SearcherKind::Random;
}

StopRules dynamic_stop_rules(const TuningOptions& options, SearcherKind searcher, std::optional<double> remaining_gpu_s) {
  StopRules r;
  r.max_configs = static_cast<std::size_t>(std::max<std::int64_t>(1, options.budget));
  double cap = options.time_s;
  if (remaining_gpu_s) cap = std::min(cap, kDynamicTimeFraction * *remaining_gpu_s);
  r.max_seconds = cap;
  if (searcher == SearcherKind::Annealing) r.max_without_improvement = kAnnealingNoImprovementStop;
  return r;
}

SearcherKind offline_searcher(std::size_t space_size) {
  return space_size <= kOfflineExhaustiveLimit ? SearcherKind::Exhaustive : SearcherKind::Annealing;
}

StopRules offline_stop_rules(std::size_t space_size, SearcherKind searcher) {
  StopRules r;
  r.max_configs = space_size <= kOfflineExhaustiveLimit ? space_size : kOfflineAnnealingBudget;
  if (searcher == SearcherKind::Annealing) r.max_without_improvement = kAnnealingNoImprovementStop;
  return r;
}

bool note_tuning_ignored_on_cpu(const TuningOptions& options) {
  if (!cache::first_time("tuning-ignored-on-cpu")) return false;
  log_info(std::string("note: kernel tuning options are ignored on the CPU (--tune ") + to_string(options.policy) + ")");
  return true;
}

bool note_no_tunable_kernels(const std::string& program, const TuningOptions& options) {
  if (!cache::first_time("tuning-nothing-to-tune")) return false;
  log_info("note: " + program + " has no tunable GPU kernel; --tune " + to_string(options.policy) + " has no effect");
  return true;
}

} // namespace frost::tuning
