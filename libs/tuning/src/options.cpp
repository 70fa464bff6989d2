#include "frost/tuning/options.hpp"

#include "frost/cli/params.hpp"
#include "frost/core/error.hpp"

namespace frost::tuning {

namespace {
constexpr const char* kSection = "Tuning";
}

void declare_tuning_options(cli::Params& p) {
  p.choice("--tune", "auto", {"off", "cached", "auto", "dynamic", "full"},
           "kernel autotuning: off (defaults only), cached (use the tuning cache, never tune), auto (tune when it "
           "pays for this run), dynamic (always tune on a cache miss; 'full' is the same)")
      .alias("--tuning")
      .in_section(kSection);
  p.integer("--tune-budget", kDynamicBudget, "configurations explored per dynamic tuning phase")
      .at_least(1)
      .in_section(kSection)
      .advanced();
  p.choice("--tune-searcher", "random", {"random", "annealing", "mcmc", "exhaustive"},
           "searcher of dynamic tuning (random: exhaustive when the space is not larger than the budget)")
      .in_section(kSection)
      .advanced();
  p.text("--tune-seed", "0x5eed", "seed of the tuning searchers (combined with each kernel's key)")
      .in_section(kSection)
      .advanced();
  p.real("--tune-time-s", kDynamicMaxSeconds, "wall-time cap per tuning phase [s]")
      .at_least(0)
      .in_section(kSection)
      .advanced();
  p.text_optional("--tuning-cache",
                  "tuning cache directory (default $FROST_TUNING_CACHE, $FROST_CACHE_DIR/tuning, "
                  "$XDG_CACHE_HOME/frost/tuning, ~/.cache/frost/tuning)")
      .meta("DIR")
      .in_section(kSection)
      .advanced();
  p.flag("--no-nvrtc", "use only the kernel variants compiled ahead of time").in_section(kSection).advanced();
}

TuningOptions tuning_options_from(const cli::Params& p) {
  TuningOptions o;
  o.policy = parse_tune_policy(p.get_text("--tune"));
  o.budget = p.get_int("--tune-budget");
  // The default searcher depends on the space (exhaustive when it fits the budget), so only an
  // explicit choice is recorded.
  if (p.given("--tune-searcher")) o.searcher = parse_searcher(p.get_text("--tune-searcher"));
  o.seed = parse_tune_seed(p.get_text("--tune-seed"));
  o.time_s = p.get_real("--tune-time-s");
  o.cache_dir = tuning_cache_dir(p.given("--tuning-cache") ? p.get_text("--tuning-cache") : "");
  o.no_nvrtc = p.flag_value("--no-nvrtc");
  return o;
}

} // namespace frost::tuning
