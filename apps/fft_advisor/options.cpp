#include "options.hpp"

#include <cstdlib>
#include <sstream>

#include "frost/core/error.hpp"

namespace frost::advisor_app {

using cli::Params;

void define_options(Params& p) {
  p.text_optional("--size", "problem dimensions XxYxZ (X fastest), e.g. 3838x3710").meta("XxYxZ").in_section("Problem");
  p.integer("-x", 0, "X dimension (reference spelling; or use --size)").at_least(0).in_section("Problem");
  p.integer("-y", 1, "Y dimension").at_least(1).in_section("Problem");
  p.integer("-z", 1, "Z dimension").at_least(1).in_section("Problem");
  p.integer("--signals", 1, "number of signals").alias("-n").at_least(1).in_section("Problem");
  p.choice("--precision", "float", {"float", "double", "both"}, "precision").in_section("Problem");
  p.choice("--kind", "r2c", {"r2c", "c2r", "c2c", "real", "any"}, "transform kind (real = r2c and c2r)").in_section("Problem");
  p.choice("--direction", "forward", {"forward", "inverse", "both"}, "direction of C2C transforms").in_section("Problem");
  p.choice("--placement", "out", {"out", "in", "both"}, "out-of-place or in-place").in_section("Problem");
  p.choice("--batched", "yes", {"yes", "no", "both"}, "one batched ('many') plan, or one signal per execution").in_section("Problem");

  p.choice("--mode", "pad", {"pad", "crop", "keep"}, "how sizes may change").in_section("Sizes");
  p.text_optional("--max-change", "limit on the element-count change in percent (default: unlimited up to the power of two)")
      .alias("--maxSignalInc").meta("PCT").in_section("Sizes");
  p.integer("--optimize-dims", 0, "only the first K dimensions may change (0 = all)")
      .alias("--countOfOptimizedDimensions").range(0, 3).in_section("Sizes");
  p.text("--parity", "any", "parity per dimension, e.g. even,even,odd (any|even|odd)").in_section("Sizes");
  p.flag("--square-only", "only square/cubic shapes").alias("--squareOnly").in_section("Sizes");
  p.flag("--allow-rotation", "2D swap heuristic of the reference (changes the caller's layout)").in_section("Sizes");
  p.flag("--allow-transposition", "also try every permutation of the dimensions").alias("--allowTransposition").in_section("Sizes");
  p.text_optional("--max-mem", "memory limit for data + plan [MiB] (default: free device memory - 5 %; CPU: none)")
      .alias("--maxMem").meta("MiB").in_section("Sizes");
  p.choice("--plan-mem-model", "auto", {"auto", "device", "worst", "paper"},
           "scratch-size source (auto: the device when measuring is possible, else worst case)").in_section("Sizes");
  p.text("--profile", "auto", "size model: cuda12, cuda8, portable, fftw (auto: cuda12 for cuda, fftw for fftw)").in_section("Sizes");
  p.text_optional("--profile-file", "load the size model from a JSON file").meta("file").in_section("Sizes");
  p.integer("--window", 0, "proximity window W (0: max(10, count); find: also at least 2 x --top)").at_least(0).in_section("Sizes");
  p.choice("--tie-break", "closest", {"closest", "elements"}, "rank equal estimates by closeness or by element count").in_section("Sizes");
  p.integer("--count", 10, "number of results printed").at_least(1).in_section("Sizes");

  p.choice("--backend", "auto", {"auto", "cuda", "fftw"}, "library to model and measure (auto: cuda when a GPU is visible)").in_section("Backend");
  p.integer("--device", 0, "CUDA device ordinal; when given, that GPU must exist (else exit 4)").alias("-device")
      .at_least(0).in_section("Backend");
  p.flag("--no-device", "use the CUDA model without touching the driver (CPU-only machines)").in_section("Backend");
  p.integer("--threads", 1, "FFTW threads").at_least(1).in_section("Backend");
  p.choice("--fftw-effort", "measure", {"estimate", "measure", "patient", "exhaustive"}, "FFTW planner effort in find").in_section("Backend");

  p.integer("--top", 20, "candidates measured by find").at_least(1).in_section("Measurement");
  p.integer("--reps", 10, "timed repetitions (at least)").at_least(1).in_section("Measurement");
  p.integer("--warmup", 2, "untimed executions first").at_least(0).in_section("Measurement");
  p.choice("--cache-state", "cold", {"cold", "warm"}, "evict the GPU L2 cache before every sample (cold)").in_section("Measurement");
  p.real("--budget-s", 60, "time budget of find [s]").at_least(0.001).in_section("Measurement");
  p.real("--lock-wait-s", 120, "wait for the per-device measurement lock [s]").at_least(0).in_section("Measurement");
  p.integer("--seed", 12345, "seed of the input data").at_least(0).in_section("Measurement");

  p.choice("--format", "table", {"table", "json", "legacy"}, "output format").in_section("Output");
  p.text_optional("--output", "write the output to this file instead of stdout").meta("file").in_section("Output");
  p.text_optional("--cache-dir", "persistent cache directory (default $FROST_CACHE_DIR, $XDG_CACHE_HOME/frost, ~/.cache/frost)")
      .meta("dir").in_section("Output");
  p.flag("--no-cache", "neither read nor write the persistent cache").in_section("Output");
  p.flag("--refresh", "ignore cached answers and overwrite them").in_section("Output");
  p.flag("-q", "quiet: errors only").in_section("Output");
  p.text_optional("--sizes", "wisdom: comma-separated sizes XxYxZ to plan").meta("list").in_section("Output");

  // The reference tool's flags (docs/fft_advisor.md#subcommands-and-reference-aliases), mapped onto
  // the options above.
  const char* ref = "Reference aliases";
  p.flag("--realOnly", "= --kind real").in_section(ref).advanced();
  p.flag("--complexOnly", "= --kind c2c").in_section(ref).advanced();
  p.flag("--floatOnly", "= --precision float").in_section(ref).advanced();
  p.flag("--doubleOnly", "= --precision double").in_section(ref).advanced();
  p.flag("--forwardOnly", "= --direction forward").in_section(ref).advanced();
  p.flag("--inverseOnly", "= --direction inverse").in_section(ref).advanced();
  p.flag("--inPlaceOnly", "= --placement in").in_section(ref).advanced();
  p.flag("--outOfPlaceOnly", "= --placement out").in_section(ref).advanced();
  p.flag("--batchOnly", "= --batched yes").in_section(ref).advanced();
  p.flag("--noBatch", "= --batched no").in_section(ref).advanced();
  p.flag("--crop", "= --mode crop").in_section(ref).advanced();
  p.flag("--disallowSizeOptimization", "= --mode keep").in_section(ref).advanced();
  p.flag("--disallowRotation", "accepted and ignored: rotation is off unless --allow-rotation").in_section(ref).advanced();
}

namespace {

double parse_nonnegative(const std::string& name, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= 0)) throw_usage_error(name + ": expected a number >= 0 but got '" + text + "'");
  return v;
}

fft::Parity parse_parity(const std::string& t) {
  if (t == "any") return fft::Parity::Any;
  if (t == "even") return fft::Parity::Even;
  if (t == "odd") return fft::Parity::Odd;
  throw_usage_error("--parity: expected any, even or odd per dimension but got '" + t + "'");
}

// "both"-style choices: the reference's *Only flags override the option.
std::string pick(const Params& p, const std::string& option, const char* only_a, const char* value_a,
                 const char* only_b, const char* value_b) {
  const bool a = p.flag_value(only_a), b = p.flag_value(only_b);
  if (a && b) throw_usage_error(std::string(only_a) + " and " + only_b + " exclude each other");
  if (a) return value_a;
  if (b) return value_b;
  return p.get_text(option);
}

} // namespace

fft::AdvisorRequest request_from(const Params& p) {
  fft::AdvisorRequest r = request_from_options_only(p);
  if (p.given("--size")) {
    if (p.given("-x")) throw_usage_error("give the dimensions either with --size or with -x/-y/-z");
    r.size = fft::parse_extent(p.get_text("--size"));
  } else {
    if (p.get_int("-x") <= 0) throw_usage_error("missing problem size: give --size XxYxZ (or -x X [-y Y] [-z Z])");
    r.size = {p.get_int("-x"), p.get_int("-y"), p.get_int("-z")};
  }
  return r;
}

fft::AdvisorRequest request_from_options_only(const Params& p) {
  fft::AdvisorRequest r;
  r.signals = p.get_int("--signals");

  const std::string prec = pick(p, "--precision", "--floatOnly", "float", "--doubleOnly", "double");
  r.precisions = prec == "float"    ? std::vector<fft::Precision>{fft::Precision::F32}
                 : prec == "double" ? std::vector<fft::Precision>{fft::Precision::F64}
                                    : std::vector<fft::Precision>{fft::Precision::F32, fft::Precision::F64};
  const std::string kind = pick(p, "--kind", "--realOnly", "real", "--complexOnly", "c2c");
  if (kind == "r2c") r.kinds = {fft::Kind::R2C};
  else if (kind == "c2r") r.kinds = {fft::Kind::C2R};
  else if (kind == "c2c") r.kinds = {fft::Kind::C2C};
  else if (kind == "real") r.kinds = {fft::Kind::R2C, fft::Kind::C2R};
  else r.kinds = {fft::Kind::R2C, fft::Kind::C2R, fft::Kind::C2C};
  const std::string dir = pick(p, "--direction", "--forwardOnly", "forward", "--inverseOnly", "inverse");
  r.directions = dir == "forward"   ? std::vector<fft::Direction>{fft::Direction::Forward}
                 : dir == "inverse" ? std::vector<fft::Direction>{fft::Direction::Inverse}
                                    : std::vector<fft::Direction>{fft::Direction::Forward, fft::Direction::Inverse};
  const std::string place = pick(p, "--placement", "--outOfPlaceOnly", "out", "--inPlaceOnly", "in");
  r.placements = place == "out" ? std::vector<fft::Placement>{fft::Placement::OutOfPlace}
                 : place == "in" ? std::vector<fft::Placement>{fft::Placement::InPlace}
                                 : std::vector<fft::Placement>{fft::Placement::OutOfPlace, fft::Placement::InPlace};
  const std::string batched = pick(p, "--batched", "--batchOnly", "yes", "--noBatch", "no");
  r.batched = batched == "yes" ? std::vector<bool>{true} : batched == "no" ? std::vector<bool>{false} : std::vector<bool>{true, false};

  std::string mode = p.get_text("--mode");
  if (p.flag_value("--crop")) mode = "crop";
  if (p.flag_value("--disallowSizeOptimization")) mode = "keep";
  r.resize = mode == "pad" ? fft::Resize::Pad : mode == "crop" ? fft::Resize::Crop : fft::Resize::Keep;
  if (p.given("--max-change")) r.max_change_pct = parse_nonnegative("--max-change", p.get_text("--max-change"));
  r.optimize_dims = static_cast<int>(p.get_int("--optimize-dims"));

  std::istringstream parities(p.get_text("--parity"));
  std::string item;
  int d = 0;
  while (std::getline(parities, item, ',')) {
    if (d == 3) throw_usage_error("--parity: at most three values");
    r.parity[static_cast<std::size_t>(d++)] = parse_parity(item);
  }
  if (d == 1) r.parity[1] = r.parity[2] = r.parity[0];

  r.square_only = p.flag_value("--square-only");
  r.allow_rotation = p.flag_value("--allow-rotation");
  r.allow_transposition = p.flag_value("--allow-transposition");
  if (r.square_only && r.allow_transposition)
    throw_usage_error("--square-only and --allow-transposition exclude each other");
  if (p.given("--max-mem"))
    r.mem_limit_bytes = static_cast<std::size_t>(parse_nonnegative("--max-mem", p.get_text("--max-mem")) * 1024.0 * 1024.0);
  r.window = static_cast<int>(p.get_int("--window"));
  r.tie_break = p.get_text("--tie-break") == "closest" ? fft::TieBreak::Closest : fft::TieBreak::Elements;
  r.count = static_cast<int>(p.get_int("--count"));
  return r;
}

fft::Protocol protocol_from(const Params& p) {
  fft::Protocol pr;
  pr.warmup = static_cast<int>(p.get_int("--warmup"));
  pr.reps = static_cast<int>(p.get_int("--reps"));
  pr.cold_cache = p.get_text("--cache-state") == "cold";
  pr.seed = static_cast<std::uint32_t>(p.get_int("--seed"));
  pr.budget_s = p.get_real("--budget-s");
  pr.fftw_threads = static_cast<int>(p.get_int("--threads"));
  pr.fftw_effort = fft::parse_rigor(p.get_text("--fftw-effort"));
  return pr;
}

SubcommandLine split_subcommand(int argc, const char* const* argv) {
  SubcommandLine s;
  int i = 1;
  if (argc > 1) {
    const std::string first = argv[1];
    for (const char* name : {"recommend", "find", "benchmark", "cache", "wisdom"})
      if (first == name) {
        s.subcommand = first;
        i = 2;
      }
  }
  if (s.subcommand == "cache")
    while (i < argc && argv[i][0] != '-' && s.positional.size() < 2) s.positional.emplace_back(argv[i++]);
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    // The reference's mode tokens, with their COUNT (docs/fft_advisor.md#subcommands-and-reference-aliases).
    if ((a == "-recommend" || a == "-find") && s.subcommand.empty()) {
      s.subcommand = a.substr(1);
      if (i + 1 < argc) {
        const std::string count = argv[++i];
        s.args.push_back("--count");
        s.args.push_back(count);
        if (a == "-find") {
          s.args.push_back("--top");
          s.args.push_back(count);
        }
      }
      continue;
    }
    if (a == "-benchmark" && s.subcommand.empty()) {
      s.subcommand = "benchmark";
      continue;
    }
    s.args.push_back(a);
  }
  return s;
}

} // namespace frost::advisor_app
