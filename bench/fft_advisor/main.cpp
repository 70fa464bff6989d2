// frost_bench_fft_advisor: validation G1 and G2 of docs/fft_advisor.md#gpu-validation in one run.
//
// G1 replicates the cuFFT paper's Table 3/4 experiment
// (docs/fft_advisor.md#the-published-experiment-and-the-detector-sizes): random 1D problems
// generated as in that experiment, each measured as the original size, the nearest k-term
// recommended sizes, the nearest recommended size ("1-4 terms"), the heuristic's first proposal
// (cuda12), the portable profile's first proposal, and the autotuned choice (find over the top T).
// G2: random 2D R2C problems and the five detector sizes (crop 10%, pad 20%): portable, heuristic,
// tuned. Both run on the GPU (cuFFT) and, with smaller problems, on the CPU (FFTW). All
// configurations of a problem are measured in the same process with the same protocol and input,
// alternating the order of find and the fixed columns. A hard time budget bounds the whole run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <unistd.h>

#include "../common/bench_main.hpp"
#include "bench_advisor.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/fft/advisor_cache.hpp"
#include "frost/fft/heuristic.hpp"
#include "frost/fft/versions.hpp"

namespace frost::bench {

namespace {

const char* kUsage =
    "usage: frost_bench_fft_advisor [options]\n"
    "Validation G1 and G2 of docs/fft_advisor.md#gpu-validation on the GPU (cuFFT) and the CPU (FFTW).\n"
    "  --problems N        G1 problems on the GPU (default 2000)\n"
    "  --g2-problems N     G2 random 2D problems on the GPU (default 500; the 5 detector sizes x\n"
    "                      crop/pad come on top unless --no-detectors)\n"
    "  --cpu-problems N    G1 problems on the CPU (default 50; total elements 1e5..1e6)\n"
    "  --cpu-g2-problems N G2 random problems on the CPU (default 20; sides 64..1024, 64Ki..1Mi elements)\n"
    "  --cpu-elements MIN:MAX  CPU G1 total elements per problem (default 1e5:1e6)\n"
    "  --cpu-detectors     also the detector sizes on the CPU (slow with one FFTW thread)\n"
    "  --no-detectors      no detector sizes on the GPU\n"
    "  --top T             candidates measured by find on the GPU (default 20, the paper's setting)\n"
    "  --window W          proximity window of find (default 0: max(10, count), at least T)\n"
    "  --cpu-top T         candidates measured by find on the CPU (default 10)\n"
    "  --reps R            samples per configuration at least (default 5)\n"
    "  --warmup K          untimed executions first (default 2)\n"
    "  --min-total-ms MS   summed sample time per configuration at least (default 1)\n"
    "  --max-samples N     samples per configuration at most (default 50)\n"
    "  --cache-state cold|warm  L2 eviction before every GPU sample (default cold)\n"
    "  --fftw-effort estimate|measure|patient  FFTW planner effort (default estimate)\n"
    "  --no-remeasure      autotuned column from find's own measurement (selection-biased)\n"
    "  --budget-s S        hard overall time budget in seconds (default 500; 120 with --quick)\n"
    "  --backend gpu|cpu|all   which parts run (default all; gpu parts skip without a GPU)\n"
    "  --only g1|g2        run only one of the two experiments\n"
    "  --device ID         CUDA device (default 0)\n"
    "  --seed S            problem generator seed (default 20180417)\n"
    "  --csv DIR           per-problem CSV files (and summary.csv) in DIR\n"
    "  --quick             tiny counts for CI (overridable by the options above)\n";

struct Args {
  Options o;
  bool budget_given = false;
};

double parse_double(const std::string& opt, const std::string& v) {
  try {
    std::size_t used = 0;
    const double d = std::stod(v, &used);
    if (used != v.size() || !std::isfinite(d)) throw std::invalid_argument(v);
    return d;
  } catch (const std::exception&) {
    throw_usage_error(opt + " needs a number, got '" + v + "'");
  }
}

long long parse_int(const std::string& opt, const std::string& v, long long lo) {
  long long n = 0;
  try {
    std::size_t used = 0;
    n = std::stoll(v, &used);
    if (used != v.size()) throw std::invalid_argument(v);
  } catch (const std::exception&) {
    throw_usage_error(opt + " needs an integer, got '" + v + "'");
  }
  if (n < lo) throw_usage_error(opt + " must be >= " + std::to_string(lo));
  return n;
}

void apply_quick(Options& o) {
  o.quick = true;
  o.g1_problems = 24;
  o.g2_problems = 8;
  o.cpu_problems = 6;
  o.cpu_g2_problems = 3;
  o.top = 10;
  o.cpu_top = 5;
  o.reps = 3;
  o.min_total_ms = 1;
  o.max_samples = 20;
  o.budget_s = 120;
  o.cpu_min_elements = 2e4;
  o.cpu_max_elements = 2e5;
  o.cpu_g2_min_side = 32;
  o.cpu_g2_max_side = 512;
  o.cpu_g2_min_total = 16384;
  o.cpu_g2_max_total = 262144;
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--quick") apply_quick(a.o);
  Options& o = a.o;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) throw_usage_error(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    if (s == "--quick") continue;
    else if (s == "--problems") o.g1_problems = static_cast<int>(parse_int(s, value(i), 0));
    else if (s == "--g2-problems") o.g2_problems = static_cast<int>(parse_int(s, value(i), 0));
    else if (s == "--cpu-problems") o.cpu_problems = static_cast<int>(parse_int(s, value(i), 0));
    else if (s == "--cpu-g2-problems") o.cpu_g2_problems = static_cast<int>(parse_int(s, value(i), 0));
    else if (s == "--cpu-elements") {
      const std::string v = value(i);
      const auto colon = v.find(':');
      if (colon == std::string::npos) throw_usage_error("--cpu-elements needs MIN:MAX");
      o.cpu_min_elements = parse_double(s, v.substr(0, colon));
      o.cpu_max_elements = parse_double(s, v.substr(colon + 1));
      if (o.cpu_min_elements < 2 || o.cpu_max_elements < o.cpu_min_elements)
        throw_usage_error("--cpu-elements needs 2 <= MIN <= MAX");
    } else if (s == "--cpu-detectors") o.cpu_detectors = true;
    else if (s == "--no-detectors") o.detectors = false;
    else if (s == "--top") o.top = static_cast<int>(parse_int(s, value(i), 1));
    else if (s == "--window") o.window = static_cast<int>(parse_int(s, value(i), 0));
    else if (s == "--cpu-top") o.cpu_top = static_cast<int>(parse_int(s, value(i), 1));
    else if (s == "--reps") o.reps = static_cast<int>(parse_int(s, value(i), 1));
    else if (s == "--warmup") o.warmup = static_cast<int>(parse_int(s, value(i), 0));
    else if (s == "--min-total-ms") o.min_total_ms = std::max(0.0, parse_double(s, value(i)));
    else if (s == "--max-samples") o.max_samples = static_cast<int>(parse_int(s, value(i), 1));
    else if (s == "--cache-state") {
      const std::string v = value(i);
      if (v != "cold" && v != "warm") throw_usage_error("--cache-state must be cold or warm");
      o.cold_cache = v == "cold";
    } else if (s == "--fftw-effort") {
      o.fftw_effort = fft::parse_rigor(value(i));
      if (o.fftw_effort == fft::FftRigor::WisdomOnly) throw_usage_error("--fftw-effort wisdom-only cannot plan new sizes");
    } else if (s == "--no-remeasure") o.remeasure = false;
    else if (s == "--budget-s") {
      o.budget_s = parse_double(s, value(i));
      if (o.budget_s <= 0) throw_usage_error("--budget-s must be positive");
      a.budget_given = true;
    } else if (s == "--backend") {
      const std::string v = value(i);
      if (v != "gpu" && v != "cpu" && v != "all" && v != "cuda") throw_usage_error("--backend must be gpu, cpu or all");
      o.gpu = v != "cpu";
      o.cpu = v == "cpu" || v == "all";
    } else if (s == "--only") {
      const std::string v = value(i);
      if (v != "g1" && v != "g2") throw_usage_error("--only must be g1 or g2");
      o.g1 = v == "g1";
      o.g2 = v == "g2";
    } else if (s == "--device") o.device = static_cast<int>(parse_int(s, value(i), 0));
    else if (s == "--seed") o.seed = static_cast<std::uint32_t>(parse_int(s, value(i), 0));
    else if (s == "--csv") o.csv_dir = value(i);
    else if (s == "--help" || s == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else
      throw_usage_error("unknown option '" + s + "'\n" + kUsage);
  }
  if (o.max_samples < o.reps) o.max_samples = o.reps;
  return a;
}

std::string now_iso() {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string host() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

std::string describe_problem(const Problem& p) {
  const fft::AdvisorRequest& r = p.request;
  const fft::Kind k = r.kinds.front();
  std::string s = fft::to_string(r.size) + " n" + std::to_string(r.signals) + " " + fft::to_string(k) + " " +
                  (k == fft::Kind::C2C ? fft::to_string(r.directions.front()) + " " : std::string()) +
                  fft::to_string(r.precisions.front()) + " " + fft::to_string(r.placements.front()) +
                  (r.batched.front() ? " many" : " single");
  if (p.label != "g1" && p.label != "g2") s = p.label + " " + s;
  if (r.resize == fft::Resize::Crop) s += " crop" + std::to_string(static_cast<int>(r.max_change_pct.value_or(0)));
  else if (r.max_change_pct) s += " pad" + std::to_string(static_cast<int>(*r.max_change_pct));
  return s;
}

/// What a part needs besides the backend.
struct PartPlan {
  std::string backend;   ///< "gpu" / "cpu"
  PartKind kind;
  std::string name;
  double share;          ///< of the remaining budget, against the other remaining parts
  int count;             ///< random problems
  bool detectors;
};

Part run_part(const PartPlan& plan, const Options& o, BackendSetup& b, Clock::time_point deadline,
              double part_budget_s, bool allow_f64) {
  Part part;
  part.name = plan.name;
  part.backend = plan.backend;
  part.kind = plan.kind;
  part.columns = plan.kind == PartKind::G1 ? g1_columns() : g2_columns();
  part.budget_s = part_budget_s;
  part.top = b.top;
  const Clock::time_point t0 = Clock::now();

  std::vector<Problem> fixed;
  if (plan.detectors) fixed = detector_problems(0);
  part.requested = static_cast<int>(fixed.size()) + plan.count;
  // One generator stream per experiment and backend, so every part is reproducible on its own.
  Rng rng(static_cast<std::uint64_t>(o.seed) * 1000003ull + (plan.kind == PartKind::G1 ? 1 : 2) +
          (plan.backend == "gpu" ? 0 : 10));

  CsvWriter csv;
  if (!o.csv_dir.empty()) {
    std::string file = o.csv_dir + "/" + (plan.kind == PartKind::G1 ? "g1_" : "g2_") + plan.backend + ".csv";
    if (!csv.open(file, part)) std::fprintf(stderr, "warning: cannot write %s\n", file.c_str());
  }

  CachingMeasurer cache(*b.measurer);
  int consecutive_failures = 0, remeasured = 0;
  Clock::time_point last_progress = Clock::now() - std::chrono::seconds(60);
  for (int i = 0; i < part.requested; ++i) {
    if (Clock::now() >= deadline) {
      part.stopped_by_budget = true;
      std::fprintf(stderr, "[%s %s] time budget reached after %d of %d problems\n", plan.backend.c_str(),
                   plan.name.c_str(), i, part.requested);
      break;
    }
    Problem p;
    if (i < static_cast<int>(fixed.size())) {
      p = fixed[static_cast<std::size_t>(i)];
    } else {
      const int id = i;
      if (plan.kind == PartKind::G1) {
        const bool gpu = plan.backend == "gpu";
        p = make_g1_problem(rng, id, gpu ? 1e6 : o.cpu_min_elements, gpu ? 2e7 : o.cpu_max_elements, allow_f64);
      } else if (plan.backend == "gpu") {
        p = make_g2_problem(rng, id, 256, 12000, 4.0 * 1024 * 1024, 64.0 * 1024 * 1024, 20.0);
      } else {
        p = make_g2_problem(rng, id, o.cpu_g2_min_side, o.cpu_g2_max_side, o.cpu_g2_min_total, o.cpu_g2_max_total,
                            20.0);
      }
    }
    p.id = i;
    Row row;
    try {
      row = run_problem(p, plan.kind, b, cache, deadline);
    } catch (const std::exception& e) {
      row = Row{};
      row.problem = p;
      row.error = e.what();
    }
    if (b.remeasure && row.cells.size() > 0 && row.cells.back().present) ++remeasured;
    part.rows.push_back(row);
    csv.write(row);
    consecutive_failures = row.ok ? 0 : consecutive_failures + 1;

    const bool last = i + 1 == part.requested;
    if (i < 3 || last || !row.ok || seconds_since(last_progress) >= 3.0) {
      last_progress = Clock::now();
      std::string res;
      if (row.ok) {
        const std::size_t h = plan.kind == PartKind::G1 ? 6 : 2;
        char buf[200];
        std::snprintf(buf, sizeof buf, "orig %.4f ms/signal, heuristic %.2fx, tuned %.2fx (find %.1f s, %d ranked%s)",
                      row.cells[0].m.median_ms_per_signal, row.cells[h].speedup, row.cells.back().speedup,
                      row.find_wall_s, row.find_ranked, row.find_budget_exhausted ? ", budget" : "");
        res = buf;
      } else {
        res = "FAILED: " + row.error;
      }
      std::fprintf(stderr, "[%s %s] %d/%d %.0fs/%.0fs  %s: %s\n", plan.backend.c_str(), plan.name.c_str(), i + 1,
                   part.requested, seconds_since(t0), part_budget_s, describe_problem(p).c_str(), res.c_str());
    }
    if (consecutive_failures >= 8) {
      part.aborted = true;
      part.abort_reason = "8 problems in a row failed; last: " + row.error;
      std::fprintf(stderr, "[%s %s] aborting: %s\n", plan.backend.c_str(), plan.name.c_str(), part.abort_reason.c_str());
      break;
    }
  }
  part.elapsed_s = seconds_since(t0);
  part.measurements = cache.fresh_measurements() + remeasured;
  part.failed_measurements = cache.failed_measurements();
  return part;
}

fft::Protocol make_protocol(const Options& o) {
  fft::Protocol p;
  p.warmup = o.warmup;
  p.reps = o.reps;
  p.min_total_ms = o.min_total_ms;
  p.max_samples = o.max_samples;
  p.cold_cache = o.cold_cache;
  p.seed = 12345;
  p.budget_s = 60;
  p.fftw_threads = 1;
  p.fftw_effort = o.fftw_effort;
  return p;
}

double mean_of(const Part& part, const std::string& col) {
  for (std::size_t i = 0; i < part.columns.size(); ++i)
    if (part.columns[i] == col) {
      std::vector<double> v;
      for (const Row& r : part.rows)
        if (r.ok) v.push_back(r.cells[i].speedup);
      return stats_of(v).mean;
    }
  return kNaN;
}

int run(const Args& args) {
  const Options& o = args.o;
  const Clock::time_point start = Clock::now();
  const Clock::time_point hard_deadline = start + std::chrono::milliseconds(static_cast<long long>(o.budget_s * 1e3));
  if (!o.csv_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.csv_dir, ec);
    if (ec) throw Error(ExitCode::Input, "cannot create --csv directory " + o.csv_dir + ": " + ec.message());
  }

  // Backends.
  std::unique_ptr<fft::Measurer> gpu_m;
  std::string gpu_skip;
  if (!o.gpu) gpu_skip = "not requested (--backend cpu)";
  else if (!cuda_compiled()) gpu_skip = "frost was built without CUDA";
  else if (cuda_device_count() == 0) gpu_skip = "no CUDA device is visible";
  else {
    try {
      gpu_m = fft::make_cufft_measurer(o.device);
    } catch (const std::exception& e) {
      gpu_skip = std::string("cannot use the GPU: ") + e.what();
    }
  }
  std::unique_ptr<fft::Measurer> cpu_m;
  std::string cpu_skip;
  bool cpu_f64 = true;
  std::string cpu_f64_note;
  if (!o.cpu) cpu_skip = "not requested (--backend gpu)";
  else {
    try {
      cpu_m = fft::make_fftw_measurer();
    } catch (const std::exception& e) {
      cpu_skip = std::string("cannot use FFTW: ") + e.what();
    }
  }
  const fft::Protocol protocol = make_protocol(o);
  if (cpu_m) {
    // The FFTW measurer may support single precision only: then CPU problems draw f32 only.
    fft::Candidate probe;
    probe.size = {1000, 1, 1};
    probe.precision = fft::Precision::F64;
    fft::Protocol tiny = protocol;
    tiny.warmup = 0;
    tiny.reps = 1;
    tiny.min_total_ms = 0;
    tiny.max_samples = 1;
    tiny.fftw_effort = fft::FftRigor::Estimate;
    const fft::Measurement m = cpu_m->measure(probe, tiny);
    if (!m.ok()) {
      cpu_f64 = false;
      cpu_f64_note = m.error;
    }
  }

  // Header.
  const char* c = "# ";
  std::printf("%sfrost_bench_fft_advisor: FFT size advisor validation G1/G2 (docs/fft_advisor.md#gpu-validation)\n", c);
  std::printf("%s%s on %s%s\n", c, now_iso().c_str(), host().c_str(), o.quick ? "  [--quick]" : "");
  std::printf("%s%s\n", c, fft::fft_versions().c_str());
  if (gpu_m)
    std::printf("%sgpu: %s | %s | %s | %s\n", c, cuda_device_description(o.device).c_str(),
                gpu_m->device_identity().c_str(), gpu_m->library_versions().c_str(), gpu_m->device_uuid().c_str());
  else std::printf("%sgpu: skipped: %s\n", c, gpu_skip.c_str());
  if (cpu_m)
    std::printf("%scpu: %s | %s | FFTW effort %s, 1 thread%s\n", c, cpu_m->device_identity().c_str(),
                cpu_m->library_versions().c_str(), fft::to_string(o.fftw_effort).c_str(),
                cpu_f64 ? "" : (", f32 only (f64: " + cpu_f64_note + ")").c_str());
  else std::printf("%scpu: skipped: %s\n", c, cpu_skip.c_str());
  std::printf("%sprotocol (docs/fft_advisor.md#measurement-protocol): per configuration a fresh plan, work area and buffers; %d untimed warm-ups; then\n"
              "%s  samples of one execution each, at least %d and at least %.1f ms summed, at most %d; median per\n"
              "%s  signal. Before every execution the input is regenerated identically (seed %u). GPU: CUDA events on a\n"
              "%s  dedicated stream, L2 %s, a 50 us spin kernel queued before the\n"
              "%s  start event; CPU: steady clock. Speedup = original median / column median, per signal, in the same\n"
              "%s  process, the order of find and the fixed columns alternating by problem.%s\n",
              c, o.warmup, c, o.reps, o.min_total_ms, o.max_samples, c, protocol.seed, c,
              o.cold_cache ? "evicted before every sample (cold)" : "not evicted (warm)", c, c,
              o.remeasure ? " The autotuned selection is\n#   measured again after find (no selection bias)." : "");
  std::printf("%sG1: random 1D problems as in the cuFFT paper (batch 1..6, total elements uniform, X = total/batch, random\n"
              "%s  precision, real/complex, direction, placement, batched), pad without limit up to the power-of-two\n"
              "%s  cap; GPU %d problems with 1e6..2e7 elements, find top %d (cuda12); CPU %d problems with %.0f..%.0f\n"
              "%s  elements, find top %d (fftw profile); heuristic = first proposal (cuda12 / fftw), portable = portable.\n",
              c, c, c, o.g1_problems, o.top, o.cpu_problems, o.cpu_min_elements, o.cpu_max_elements, c, o.cpu_top);
  if (o.window > 0) std::printf("%sfind's proximity window: %d closest sizes (default: max(10, count), at least T)\n", c, o.window);
  std::printf("%sG2: 2D R2C f32 out-of-place batched, pad <= 20%%; GPU %d problems, X and Y log-uniform in [256, 12000],\n"
              "%s  4Mi..64Mi elements, plus %s; CPU %d problems, sides %lld..%lld, %.0f..%.0f elements%s.\n",
              c, o.g2_problems, c, o.detectors ? "5 detector sizes x (crop 10%, pad 20%), 1 signal" : "no detector sizes",
              o.cpu_g2_problems, static_cast<long long>(o.cpu_g2_min_side), static_cast<long long>(o.cpu_g2_max_side),
              o.cpu_g2_min_total, o.cpu_g2_max_total, o.cpu_detectors ? ", plus the detector sizes" : "");
  std::printf("%sseed %u; time budget %.0f s overall (shares: gpu G1 55%%, gpu G2 30%%, cpu G1 9%%, cpu G2 6%%; time a\n"
              "%s  part does not use passes to the later ones); %s\n",
              c, o.seed, o.budget_s, c, o.csv_dir.empty() ? "no CSV" : ("CSV in " + o.csv_dir).c_str());
  std::fflush(stdout);

  // Measurement lock of the GPU (docs/fft_advisor.md#measurement-lock): held for the whole GPU part.
  std::optional<fft::DeviceLock> lock;
  if (gpu_m) {
    try {
      lock.emplace(fft::default_cache_dir(), gpu_m->device_uuid(), 30.0);
      if (!lock->held())
        std::printf("%swarning: another process holds the measurement lock of this GPU; timings may be disturbed\n", c);
    } catch (const std::exception& e) {
      std::printf("%swarning: no measurement lock (%s)\n", c, e.what());
    }
    // Context creation, cuFFT's lazy module loading and clocks ramping up, outside every problem.
    fft::Candidate w;
    w.size = {1 << 20, 1, 1};
    w.batch = 4;
    w.kind = fft::Kind::C2C;
    const fft::Measurement wm = gpu_m->measure(w, protocol);
    if (!wm.ok()) std::fprintf(stderr, "warning: GPU warm-up failed: %s\n", wm.error.c_str());
  }

  const auto scratch = fft::worst_case_scratch_model(); // no memory limit in G1/G2: only for the report
  // One setup per measured backend: the profiles of its heuristic, tuned and portable columns.
  auto setup = [&](const char* name, const char* library, fft::Measurer* m, const char* profile, int top) {
    BackendSetup b;
    b.name = name;
    b.library = library;
    b.measurer = m;
    b.heuristic = b.tuned = &fft::builtin_profile(profile);
    b.portable = &fft::builtin_profile("portable");
    b.scratch = scratch.get();
    b.top = top;
    b.window = o.window;
    b.protocol = protocol;
    b.remeasure = o.remeasure;
    return b;
  };
  BackendSetup gpu_b, cpu_b;
  if (gpu_m) gpu_b = setup("gpu", "cuFFT", gpu_m.get(), "cuda12", o.top);
  if (cpu_m) cpu_b = setup("cpu", "FFTW", cpu_m.get(), "fftw", o.cpu_top);

  std::vector<PartPlan> plans;
  if (o.g1) plans.push_back({"gpu", PartKind::G1, "G1 1D", 0.55, o.g1_problems, false});
  if (o.g2) plans.push_back({"gpu", PartKind::G2, "G2 2D", 0.30, o.g2_problems, o.detectors});
  if (o.g1) plans.push_back({"cpu", PartKind::G1, "G1 1D", 0.09, o.cpu_problems, false});
  if (o.g2) plans.push_back({"cpu", PartKind::G2, "G2 2D", 0.06, o.cpu_g2_problems, o.cpu_detectors});

  std::vector<Part> parts;
  std::vector<std::vector<Verdict>> verdicts;
  for (std::size_t k = 0; k < plans.size(); ++k) {
    const PartPlan& plan = plans[k];
    const bool gpu = plan.backend == "gpu";
    BackendSetup& b = gpu ? gpu_b : cpu_b;
    Part part;
    if (!b.measurer || plan.count + (plan.detectors ? 10 : 0) == 0) {
      part.name = plan.name;
      part.backend = plan.backend;
      part.kind = plan.kind;
      part.skipped = true;
      part.requested = plan.count + (plan.detectors ? 10 : 0);
      part.skip_reason = !b.measurer ? (gpu ? gpu_skip : cpu_skip) : "no problems requested";
      parts.push_back(part);
      verdicts.push_back(report_part(part, !gpu));
      continue;
    }
    // This part's share of what is left, against the parts still to come that can run.
    double shares = 0;
    for (std::size_t j = k; j < plans.size(); ++j) {
      const bool can = (plans[j].backend == "gpu" ? gpu_b : cpu_b).measurer != nullptr &&
                       plans[j].count + (plans[j].detectors ? 10 : 0) > 0;
      if (can) shares += plans[j].share;
    }
    const double left = std::max(0.0, std::chrono::duration<double>(hard_deadline - Clock::now()).count());
    const double budget = shares > 0 ? left * plan.share / shares : left;
    const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(static_cast<long long>(budget * 1e3));
    std::fprintf(stderr, "[%s %s] starting: %d problems, %.0f s budget\n", plan.backend.c_str(), plan.name.c_str(),
                 plan.count + (plan.detectors ? 10 : 0), budget);
    part = run_part(plan, o, b, deadline, budget, gpu || cpu_f64);
    parts.push_back(part);
    verdicts.push_back(report_part(part, !gpu));
    if (plan.kind == PartKind::G2) report_detectors(part);
  }

  // Compact summary.
  std::printf("\n## summary: mean speedup over the original size per column; checks passed / checked\n");
  std::printf("  %-7s %-4s %11s %9s %9s %9s %9s %8s %8s %7s %8s\n", "part", "dev", "problems", "heuristic", "portable",
              "tuned", "1-4 terms", "tun/1-4", "heur/1-4", "checks", "time s");
  std::FILE* sc = nullptr;
  if (!o.csv_dir.empty()) {
    sc = std::fopen((o.csv_dir + "/summary.csv").c_str(), "w");
    if (sc) std::fprintf(sc, "part,backend,done,requested,heuristic,portable,tuned,one_to_four_terms,checks_passed,checks,seconds\n");
  }
  int measured_total = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const Part& p = parts[k];
    int done = 0;
    for (const Row& r : p.rows) done += r.ok ? 1 : 0;
    measured_total += done;
    const bool g1 = p.kind == PartKind::G1;
    const double h = mean_of(p, "heuristic"), po = mean_of(p, "portable"), t = mean_of(p, g1 ? "autotuned" : "tuned");
    const double base = g1 ? mean_of(p, "1-4 terms") : kNaN;
    int pass = 0;
    for (const Verdict& v : verdicts[k]) pass += v.pass ? 1 : 0;
    const std::string probs = p.skipped ? "skipped" : std::to_string(done) + "/" + std::to_string(p.requested);
    const std::string checks = std::to_string(pass) + "/" + std::to_string(verdicts[k].size());
    std::printf("  %-7s %-4s %11s", p.name.c_str(), p.backend.c_str(), probs.c_str());
    for (double v : {h, po, t, base}) {
      if (std::isfinite(v)) std::printf(" %9.3f", v);
      else std::printf(" %9s", "-");
    }
    for (double v : {t / base, h / base}) {
      if (std::isfinite(v)) std::printf(" %8.3f", v);
      else std::printf(" %8s", "-");
    }
    std::printf(" %7s %8.1f%s\n", checks.c_str(), p.elapsed_s, p.backend == "cpu" ? "  (cpu checks informational)" : "");
    if (sc)
      std::fprintf(sc, "%s,%s,%d,%d,%.6g,%.6g,%.6g,%.6g,%d,%zu,%.3f\n", p.name.c_str(), p.backend.c_str(), done,
                   p.requested, h, po, t, base, pass, verdicts[k].size(), p.elapsed_s);
  }
  if (sc) std::fclose(sc);
  std::printf("# total %.1f s of %.0f s budget\n", seconds_since(start), o.budget_s);
  std::fflush(stdout);
  if (measured_total == 0) {
    std::fprintf(stderr, "frost_bench_fft_advisor: nothing was measured\n");
    return 1;
  }
  return 0;
}

} // namespace
} // namespace frost::bench

int main(int argc, char** argv) {
  return frost::bench::bench_main("frost_bench_fft_advisor",
                                  [&] { return frost::bench::run(frost::bench::parse(argc, argv)); });
}
