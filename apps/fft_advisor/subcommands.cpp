#include "subcommands.hpp"

#include <iostream>
#include <sstream>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/core/version.hpp"
#include "frost/fft/advisor_report.hpp"
#include "frost/fft/fftw_wisdom_file.hpp"
#include "frost/fft/planner.hpp"
#include "options.hpp"

namespace frost::advisor_app {

namespace {

std::string cache_dir(const cli::Params& p) {
  return fft::default_cache_dir(p.given("--cache-dir") ? p.get_text("--cache-dir") : "");
}

std::string describe(const fft::CacheRecord& r) {
  std::ostringstream o;
  o << fft::to_string(r.answer.size) << " batch " << r.answer.batch << "  " << r.source;
  if (r.ms_per_signal) o << " " << *r.ms_per_signal << " ms/signal";
  if (r.original_ms_per_signal) o << " (original " << *r.original_ms_per_signal << ")";
  o << "  " << r.time_iso8601 << "  " << r.host;
  return o.str();
}

} // namespace

int run_cache(const cli::Params& p, const std::vector<std::string>& positional) {
  if (positional.empty()) throw_usage_error("cache: expected list, show KEY, clear, export FILE, import FILE or compact");
  const std::string& action = positional[0];
  const bool needs_arg = action == "show" || action == "export" || action == "import";
  if (needs_arg && positional.size() < 2) throw_usage_error("cache " + action + ": missing argument");
  if (!needs_arg && positional.size() > 1) throw_usage_error("cache " + action + " takes no argument");
  fft::AdvisorCache cache(cache_dir(p));
  if (action == "list") {
    const auto records = cache.records();
    std::cout << "# " << cache.file() << ": " << records.size() << " record(s)\n";
    for (const auto& r : records) std::cout << fft::cache_key_hash(r.key) << "  " << describe(r) << "\n";
  } else if (action == "show") {
    bool found = false;
    for (const auto& r : cache.records()) {
      // KEY is the canonical key string or its hash as printed by `cache list`.
      if (r.key == positional[1] || std::to_string(fft::cache_key_hash(r.key)) == positional[1]) {
        std::cout << fft::record_to_json(r) << "\n";
        found = true;
      }
    }
    if (!found) FROST_THROW(ExitCode::Runtime, "cache show: no record with key " + positional[1] + " in " + cache.file());
  } else if (action == "clear") {
    cache.clear();
  } else if (action == "export") {
    cache.export_to(positional[1]);
  } else if (action == "import") {
    cache.import_from(positional[1]);
  } else if (action == "compact") {
    cache.compact();
  } else {
    throw_usage_error("cache: unknown action '" + action + "'");
  }
  return 0;
}

int run_wisdom(const cli::Params& p) {
  if (!p.given("--sizes")) throw_usage_error("wisdom: give the sizes to plan with --sizes, e.g. --sizes 4096x4096,3840x3712");
  if (p.get_text("--precision") != "float") throw_usage_error("wisdom: frost's FFTs are single precision; use --precision float");
  const fft::FftRigor effort = fft::parse_rigor(p.get_text("--fftw-effort"));
  if (effort == fft::FftRigor::Estimate) throw_usage_error("wisdom: --fftw-effort estimate creates no wisdom");
  // The kinds and placements come from the same options as recommend/find.
  fft::AdvisorRequest shape_options = request_from_options_only(p);
  const std::string dir = cache_dir(p);
  fft::load_fftw_wisdom(dir, fft::Precision::F32);
  auto planner = fft::make_planner(fft::Backend::Cpu);
  fft::PlanOptions opts;
  opts.rigor = effort;
  opts.threads = static_cast<int>(p.get_int("--threads"));
  int planned = 0;
  bool saved = true;
  std::istringstream list(p.get_text("--sizes"));
  std::string item;
  while (std::getline(list, item, ',')) {
    const fft::Extent e = fft::parse_extent(item);
    for (fft::Kind kind : shape_options.kinds)
      for (fft::Placement place : shape_options.placements) {
        const Shape s{e.x, e.y, e.z, p.get_int("--signals")};
        const fft::FftSpec spec = kind == fft::Kind::R2C   ? fft::FftSpec::r2c(s, place)
                                  : kind == fft::Kind::C2R ? fft::FftSpec::c2r(s, place)
                                                           : fft::FftSpec::c2c(s, fft::Direction::Forward, place);
        planner->plan(spec, opts);
        // Saved after every plan (merged and renamed into place, so always whole): a patient run
        // stopped after an hour keeps the hour's wisdom.
        saved = fft::save_fftw_wisdom(dir, fft::Precision::F32) && saved;
        log_info("planned " + fft::to_string(spec) + " (" + fft::to_string(effort) + "), wisdom " +
                 (saved ? "saved" : "NOT saved"));
        ++planned;
      }
  }
  std::cout << planned << " plan(s); wisdom " << (saved ? "saved to " : "NOT saved to ")
            << fft::fftw_wisdom_file(dir, fft::Precision::F32) << "\n";
  return saved ? 0 : 1;
}

} // namespace frost::advisor_app
