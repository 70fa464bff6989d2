// frost_tune: offline autotuning tool (docs/tune.md#the-program-frost_tune).
// * list: every kernel space, its parameters, constraints, valid configuration count for this
//   device (or for a reference device without a GPU), default and signature;
// * run: search a kernel's space on preset problems (docs/tune.md#offline-protocol, every
//   configuration verified against the default's output first), bench the default and the best side by
//   side (interleaved, G2 of docs/tune.md#gpu-validation) and append the record to the tuning cache;
// * sweep: verify every configuration, time nothing (G1 of docs/tune.md#gpu-validation);
// * cache show | compact: the records of the tuning cache.
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "frost/cli/program.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/cache/text_hash.hpp"
#include "frost/cache/timestamps.hpp"
#include "frost/tuning/cache.hpp"
#include "frost/tuning/kernel_spaces.hpp"
#include "frost/tuning/policy.hpp"
#include "frost/tuning/tune_target.hpp"
#include "tune_run.hpp"

namespace frost::tune_app {
namespace {

class FrostTune : public cli::Program {
public:
  FrostTune(std::string subcommand, std::string action, std::string file)
      : Program("frost_tune",
                "Offline autotuning of frost's CUDA kernels (docs/tune.md#the-program-frost_tune).\n"
                "Usage: frost_tune <subcommand> [options]\n"
                "  list           tunable kernels: parameters, constraints, valid configurations on this device\n"
                "                 (or on a reference 1024-thread, 48 KiB device with --device cpu / without a GPU),\n"
                "                 default configuration and space signature\n"
                "  run            search a kernel's space on preset problems: every configuration verified against\n"
                "                 the default's output, then timed (median of launches timed with CUDA events); the\n"
                "                 default and the best benched side by side; the record appended to the tuning cache\n"
                "  sweep          verify every configuration on the presets against the default's output (no timing)\n"
                "  cache show     the records of the tuning cache\n"
                "  cache compact  keep the effective record per key\n"
                "  cache export FILE | import FILE  copy records to a file / append a file's records (site databases)\n"
                "  cache prune --older-than DAYS    remove records tuned more than DAYS days ago\n"
                "Presets: fr_insert recon-<32|64|128|256>-<c1|i> (25 images per launch, the program's default);\n"
                "ma_correlate and fourier_crop_filter k3, falcon (global alignment at the default settings).\n"
                "Examples: frost_tune list --device 0\n"
                "          frost_tune run --kernel fr_insert --preset recon-128-i --device 0\n"
                "          frost_tune sweep --kernel fr_insert --preset all --device 0"),
        subcommand_(std::move(subcommand)), action_(std::move(action)), file_(std::move(file)) {}

protected:
  void define(cli::Params& p) override {
    add_device_option(p, subcommand_ == "list" || subcommand_ == "cache" ? "auto" : "0");
    if (subcommand_ == "run" || subcommand_ == "sweep") {
      p.text("--kernel", "fr_insert", "kernel to tune: fr_insert, ma_correlate, fourier_crop_filter");
      p.text("--preset", "all", "preset problems, comma-separated, or 'all'");
      p.choice("--searcher", "", {"", "exhaustive", "random", "annealing", "mcmc"},
               "searcher (default: exhaustive up to 2,000 configurations, else annealing)");
      p.integer("--budget", 0, "configurations to explore (0: the offline default)").at_least(0);
      p.text("--seed", "0x5eed", "seed of the searcher (combined with the record key)");
      p.choice("--verify", "on", {"on", "off"}, "check each configuration's output against the default's first");
      p.integer("--bench-samples", 20, "interleaved samples of the default and the best (0: no side-by-side bench)")
          .at_least(0);
      p.text_optional("--json", "write every explored configuration and the summary as JSON to this file").meta("OUT");
      p.flag("--no-record", "do not append the result to the tuning cache");
    } else {
      p.flag("--json", "print the list as JSON");
    }
    if (subcommand_ == "list")
      p.flag("--lookup-dynamic", "fr_insert with dynamic blob weights (interpolation = dynamic) instead of the table");
    if (subcommand_ != "list")
      p.text_optional("--tuning-cache", "tuning cache directory (default: see docs/tune.md#location-and-files)").meta("DIR");
    if (subcommand_ == "cache" && action_ == "prune")
      p.real("--older-than", 0, "cache prune: remove records tuned more than this many days ago").at_least(0);
  }

  void validate() override {
    if (subcommand_.empty()) throw_usage_error("missing subcommand: list, run, sweep or cache");
    if (subcommand_ != "list" && subcommand_ != "run" && subcommand_ != "sweep" && subcommand_ != "cache")
      throw_usage_error("unknown subcommand '" + subcommand_ + "' (list, run, sweep, cache)");
    if (subcommand_ == "cache" && action_ != "show" && action_ != "compact" && action_ != "export" &&
        action_ != "import" && action_ != "prune")
      throw_usage_error("frost_tune cache: say show, compact, export FILE, import FILE or prune --older-than DAYS");
    if ((action_ == "export" || action_ == "import") && file_.empty())
      throw_usage_error("frost_tune cache " + action_ + ": name the file (frost_tune cache " + action_ + " FILE)");
    if (action_ == "prune" && !params().given("--older-than"))
      throw_usage_error("frost_tune cache prune: give --older-than DAYS");
  }

  int run() override {
    if (subcommand_ == "run" || subcommand_ == "sweep") return run_or_sweep();
    if (subcommand_ == "cache") return cache();
    return list();
  }

private:
  /// --tuning-cache, else the default directory.
  std::string cache_dir() const {
    return tuning::tuning_cache_dir(params().given("--tuning-cache") ? params().get_text("--tuning-cache") : "");
  }

  int run_or_sweep() {
    const DeviceSelection sel = device();
    if (sel.cpu) throw Error(ExitCode::Usage, "frost_tune " + subcommand_ + " times kernels on a GPU: give --device ID");
    const int device_id = sel.gpus.front();
    const std::string kernel = params().get_text("--kernel");
    std::vector<std::string> presets;
    const std::string list = params().get_text("--preset");
    if (list == "all") {
      presets = tuning::presets_of(kernel);
    } else {
      std::stringstream ss(list);
      for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) presets.push_back(item);
    }
    RunOptions o;
    o.sweep = subcommand_ == "sweep";
    if (!params().get_text("--searcher").empty()) o.searcher = tuning::parse_searcher(params().get_text("--searcher"));
    if (params().get_int("--budget") > 0) o.budget = static_cast<std::size_t>(params().get_int("--budget"));
    o.seed = tuning::parse_tune_seed(params().get_text("--seed"));
    o.verify = params().get_text("--verify") == "on";
    o.bench_samples = static_cast<int>(params().get_int("--bench-samples"));
    std::unique_ptr<tuning::TuningCache> cache;
    if (!o.sweep && !params().flag_value("--no-record")) {
      cache = std::make_unique<tuning::TuningCache>(
          cache_dir());
      o.cache = cache.get();
    }
    nlohmann::json rows = nlohmann::json::array(), summary = nlohmann::json::array();
    std::vector<RunSummary> sums;
    for (const std::string& preset : presets) {
      std::unique_ptr<tuning::TuneTarget> target = tuning::make_tune_target(kernel, preset, device_id);
      sums.push_back(run_target(*target, preset, o, rows));
      const RunSummary& r = sums.back();
      nlohmann::json j{{"kernel", r.kernel}, {"preset", r.preset}, {"space", r.space_size}, {"explored", r.explored},
                       {"invalid", r.invalid}, {"mismatched", r.mismatched}, {"worst_difference", r.worst_difference},
                       {"best", r.best}, {"tuning_s", r.tuning_s}, {"recorded", r.recorded}, {"key", target->key().str()}};
      auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
      j["default_ms"] = opt(r.default_ms);
      j["best_ms"] = opt(r.best_ms);
      j["bench_default_ms"] = opt(r.bench_default_ms);
      j["bench_best_ms"] = opt(r.bench_best_ms);
      summary.push_back(j);
    }
    if (params().given("--json")) {
      const std::string path = params().get_text("--json");
      std::FILE* f = std::fopen(path.c_str(), "w");
      if (!f) throw Error(ExitCode::Runtime, "cannot write " + path);
      const std::string text = nlohmann::json{{"configurations", rows}, {"summary", summary}}.dump(1) + "\n";
      const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
      if (std::fclose(f) != 0 || !ok) throw Error(ExitCode::Runtime, "cannot write " + path);
    }
    // The summary table, printed last.
    std::printf("\n%-10s %-14s %6s %8s %7s %9s %12s %12s %12s %12s %8s %9s %10s\n", "kernel", "preset", "space",
                "explored", "invalid", "mismatch", "worst_diff", "default_ms", "tuned_ms", "bench_def", "speedup",
                "tuning_s", "recorded");
    int mismatches = 0;
    for (const RunSummary& r : sums) {
      auto f = [](const std::optional<double>& v) { return v ? std::to_string(*v) : std::string("-"); };
      const std::string speedup = r.bench_default_ms && r.bench_best_ms && *r.bench_best_ms > 0
                                      ? std::to_string(*r.bench_default_ms / *r.bench_best_ms)
                                      : "-";
      std::printf("%-10s %-14s %6zu %8zu %7zu %9zu %12.3g %12s %12s %12s %8s %9.1f %10s\n", r.kernel.c_str(),
                  r.preset.c_str(), r.space_size, r.explored, r.invalid, r.mismatched, r.worst_difference,
                  f(r.default_ms).c_str(), f(r.bench_best_ms ? r.bench_best_ms : r.best_ms).c_str(),
                  f(r.bench_default_ms).c_str(), speedup.c_str(), r.tuning_s, r.recorded ? "yes" : "no");
      mismatches += static_cast<int>(r.mismatched);
      if (!r.best.empty()) std::printf("    best: %s\n", r.best.c_str());
    }
    if (mismatches > 0) {
      log_error(std::to_string(mismatches) + " configuration(s) disagree with the default's output");
      return static_cast<int>(ExitCode::Runtime);
    }
    return 0;
  }

  int cache() {
    tuning::TuningCache c(
        cache_dir());
    if (action_ == "compact") {
      c.compact();
      std::printf("compacted %s: %zu record(s)\n", c.records_file().c_str(), c.records().size());
      return 0;
    }
    if (action_ == "export") {
      const std::size_t n = c.export_to(file_);
      std::printf("exported %zu record(s) of %s to %s\n", n, c.records_file().c_str(), file_.c_str());
      return 0;
    }
    if (action_ == "import") {
      const auto n = c.import_from(file_);
      std::printf("imported %zu record(s) from %s into %s (%zu of another schema, %zu skipped)\n", n.imported,
                  file_.c_str(), c.records_file().c_str(), n.other_schema, n.skipped);
      return n.skipped > 0 ? 3 : 0;
    }
    if (action_ == "prune") {
      const double days = params().get_real("--older-than");
      const std::string cutoff = cache::iso8601_at(std::chrono::system_clock::now() -
                                                         std::chrono::seconds(static_cast<long long>(days * 86400.0)));
      const std::size_t removed = c.prune_before(cutoff);
      std::printf("pruned %zu record(s) tuned before %s from %s; %zu left\n", removed, cutoff.c_str(),
                  c.records_file().c_str(), c.records().size());
      return 0;
    }
    std::printf("# %s\n", c.records_file().c_str());
    for (const tuning::TuningRecord& r : c.records()) {
      const std::string best = tuning::describe(r.best);
      std::printf("%s\n  best %.4f ms%s  (%s)  explored %lld of %lld, %s, %s\n", r.key.c_str(), r.best_ms,
                  r.default_ms ? (", default " + std::to_string(*r.default_ms) + " ms").c_str() : "", best.c_str(),
                  static_cast<long long>(r.explored), static_cast<long long>(r.space_size), r.searcher.c_str(),
                  r.time.c_str());
    }
    return 0;
  }

  int list() {
    std::string where = "reference device (1024 threads/block, 48 KiB shared/block): no GPU in use";
    tuning::DeviceLimits limits;
    const DeviceSelection sel = device();
    if (!sel.cpu) {
      limits = tuning::gpu_device_limits(sel.gpus.front());
      where = "CUDA device " + std::to_string(sel.gpus.front()) + ": cc " + std::to_string(limits.cc_major) + "." +
              std::to_string(limits.cc_minor) + ", " + std::to_string(limits.max_threads_per_block) +
              " threads/block, " + std::to_string(limits.max_shared_bytes_per_block / 1024) + " KiB shared/block";
    }
    tuning::FrInsertSettings fr;
    fr.lookup_interpolation = !params().flag_value("--lookup-dynamic");
    const std::vector<tuning::KernelSpace> spaces{
        tuning::fr_insert_space(limits, fr),           tuning::ma_correlate_space(limits),
        tuning::fourier_crop_filter_space(limits),     tuning::extrema_window_space(limits),
        tuning::extrema_full_space(limits),            tuning::reduce_space(limits)};
    if (params().flag_value("--json")) {
      nlohmann::json out{{"device", where}, {"kernels", nlohmann::json::array()}};
      for (const auto& k : spaces) {
        nlohmann::json params_json = nlohmann::json::array();
        for (const auto& p : k.space.parameters())
          params_json.push_back({{"name", p.name}, {"kind", tuning::to_string(p.kind)}, {"values", p.values}});
        nlohmann::json def = nlohmann::json::object();
        for (const auto& [name, value] : k.default_config) def[name] = value;
        out["kernels"].push_back({{"kernel", k.kernel},
                                  {"version", k.space.kernel_version()},
                                  {"parameters", params_json},
                                  {"constraints", k.space.constraints().size()},
                                  {"raw", k.space.raw_size()},
                                  {"valid", k.space.enumerate().size()},
                                  {"default", def},
                                  {"signature", cache::hex64(k.space.signature())}});
      }
      std::printf("%s\n", out.dump(2).c_str());
      return 0;
    }
    std::printf("# %s\n", where.c_str());
    std::printf("%-20s %4s %8s %8s  %-16s  %s\n", "kernel", "ver", "raw", "valid", "signature", "default");
    for (const auto& k : spaces)
      std::printf("%-20s %4d %8zu %8zu  %-16s  %s\n", k.kernel.c_str(), k.space.kernel_version(), k.space.raw_size(),
                  k.space.enumerate().size(), cache::hex64(k.space.signature()).c_str(), tuning::describe(k.default_config).c_str());
    for (const auto& k : spaces) {
      std::printf("\n%s:\n", k.kernel.c_str());
      for (const auto& p : k.space.parameters()) {
        std::ostringstream values;
        for (std::size_t i = 0; i < p.values.size(); ++i) values << (i ? ", " : "") << p.values[i];
        std::printf("  %-20s %-8s {%s}\n", p.name.c_str(), tuning::to_string(p.kind), values.str().c_str());
      }
      for (const auto& c : k.space.constraints()) std::printf("  constraint: %s\n", c.id.c_str());
    }
    return 0;
  }

  std::string subcommand_, action_, file_;
};

} // namespace
} // namespace frost::tune_app

int main(int argc, char** argv) {
  // `frost_tune <subcommand> [options]`: the subcommand is the first argument when it is not an
  // option; the program base sees the options only.
  const std::string subcommand = argc > 1 && argv[1][0] != '-' ? argv[1] : "";
  // `cache` takes an action word (show, compact, export FILE, import FILE, prune) after it.
  const bool has_action = subcommand == "cache" && argc > 2 && argv[2][0] != '-';
  const std::string action = has_action ? argv[2] : "";
  const bool has_file = (action == "export" || action == "import") && argc > 3 && argv[3][0] != '-';
  const std::string file = has_file ? argv[3] : "";
  // argv[0] carries the subcommand so that the logged command line is the one typed.
  std::string program = subcommand.empty() ? argv[0] : std::string(argv[0]) + " " + subcommand;
  if (has_action) program += " " + action;
  if (has_file) program += " " + file;
  std::vector<const char*> args{program.c_str()};
  for (int i = subcommand.empty() ? 1 : (has_action ? (has_file ? 4 : 3) : 2); i < argc; ++i) args.push_back(argv[i]);
  frost::tune_app::FrostTune tool(subcommand, action, file);
  return tool.main(static_cast<int>(args.size()), args.data());
}
