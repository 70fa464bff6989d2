#include "frost/tuning/program_selection.hpp"

#include <memory>

namespace frost::tuning {

Selection select_for_program(const TuningOptions& options, const TuningKey& key, const KernelSpace& space) {
  KernelDefaults defaults;
  defaults.config = space.default_config;
  if (options.policy == TunePolicy::Off) return select_configuration(nullptr, LookupRequest{key, {}, 0, {}}, defaults);
  std::vector<std::string> shipped;
  if (const std::string dir = shipped_database_dir(); !dir.empty()) shipped.push_back(dir);
  const TuningCache cache(options.cache_dir, shipped);
  LookupRequest req;
  req.key = key;
  req.size_fields = space.size_fields;
  req.budget = options.budget;
  req.usable = [&space](const NamedConfig& c) {
    const auto config = space.space.from_named(c);
    return config.has_value() && space.space.valid(*config);
  };
  return select_configuration(&cache, req, defaults);
}

std::string describe_selection(const std::string& kernel, const Selection& s, const TuningOptions& options,
                               bool tunes_in_run) {
  std::string where = to_string(s.source);
  if (s.hit) {
    where += std::string(" record of ") + (s.hit->shipped ? "the shipped database" : options.cache_dir) + ", tuned " +
             s.hit->record.time;
    if (s.hit->source == ConfigSource::Similar) where += ", size ratio " + std::to_string(s.hit->max_ratio);
  } else if (options.policy == TunePolicy::Off) {
    where += " (--tune off)";
  } else {
    where += " (no record; frost_tune run fills the cache)";
  }
  if ((options.policy == TunePolicy::Auto || options.policy == TunePolicy::Dynamic) &&
      s.source != ConfigSource::Exact) {
    if (!tunes_in_run)
      where += std::string("; --tune ") + to_string(options.policy) + ": this kernel is not tuned during the run";
    else if (options.policy == TunePolicy::Auto)
      where += "; --tune auto decides after the first timed launch whether tuning pays";
    else
      where += "; --tune dynamic tunes during the run";
  }
  return kernel + ": " + describe(s.config) + " [" + where + "]";
}

} // namespace frost::tuning
