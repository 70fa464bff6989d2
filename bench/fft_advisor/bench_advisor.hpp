#pragma once
// frost_bench_fft_advisor: shared types of the problem generators, the runner and the reports
// (G1 and G2 of docs/fft_advisor.md#gpu-validation, on cuFFT and FFTW).
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frost/fft/advisor_backend.hpp"
#include "frost/fft/advisor_types.hpp"

namespace frost::bench {

using fft::Extent;
using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Command-line settings.
struct Options {
  int g1_problems = 2000;         ///< GPU G1 (paper: 2000)
  int g2_problems = 500;          ///< GPU G2 random problems (plus the detector sizes)
  int cpu_problems = 50;          ///< CPU G1
  int cpu_g2_problems = 20;       ///< CPU G2 random problems
  bool detectors = true;          ///< GPU G2: the five detector sizes, crop 10% and pad 20%
  bool cpu_detectors = false;     ///< the same on the CPU (slow with one FFTW thread)
  int top = 20;                   ///< T of find on the GPU (paper: 20)
  int cpu_top = 10;               ///< T of find on the CPU
  int window = 0;                 ///< proximity window of find (0: the advisor default, at least T)
  int reps = 5;                   ///< protocol: samples at least
  int warmup = 2;
  double min_total_ms = 1;        ///< protocol: summed sample time at least
  int max_samples = 50;
  bool cold_cache = true;
  double budget_s = 500;          ///< hard overall budget for measuring
  std::uint32_t seed = 20180417;
  bool quick = false;
  std::string csv_dir;
  bool gpu = true, cpu = true;
  bool g1 = true, g2 = true;
  int device = 0;
  fft::FftRigor fftw_effort = fft::FftRigor::Estimate;
  double cpu_min_elements = 1e5, cpu_max_elements = 1e6;  ///< CPU G1 total elements
  index_t cpu_g2_min_side = 64, cpu_g2_max_side = 1024;   ///< CPU G2 X, Y
  double cpu_g2_min_total = 65536, cpu_g2_max_total = 1048576;
  bool remeasure = true;          ///< measure the autotuned choice again, outside find (no selection bias)
};

/// Deterministic generator (SplitMix64) with exact integer ranges,
/// so problem lists are identical across standard libraries.
class Rng {
public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next();
  /// Uniform integer in [lo, hi] (unbiased).
  std::int64_t uniform_int(std::int64_t lo, std::int64_t hi);
  /// Uniform double in [0, 1).
  double unit();
  /// exp(uniform(log lo, log hi)).
  double log_uniform(double lo, double hi);
  bool coin() { return (next() >> 63) != 0; }

private:
  std::uint64_t s_;
};

/// One benchmark problem: the request (single option combination) and a label.
struct Problem {
  int id = 0;
  std::string label;              ///< "g1", "g2", or the detector name
  fft::AdvisorRequest request;
};

/// G1: batch uniform 1..6, total uniform in [min_total, max_total], X = total / batch,
/// random precision, real/complex, forward/inverse, placement, batched or not.
Problem make_g1_problem(Rng& rng, int id, double min_total, double max_total, bool allow_f64);
/// G2: 2D R2C float out-of-place batched, X and Y log-uniform in [min_side, max_side], batch so
/// that the total lies in [min_total, max_total]; pad with at most `pad_pct` percent.
Problem make_g2_problem(Rng& rng, int id, index_t min_side, index_t max_side, double min_total, double max_total,
                        double pad_pct);
/// The five detector sizes (docs/fft_advisor.md#the-published-experiment-and-the-detector-sizes),
/// each as crop 10% and pad 20% (square-only for the square one).
std::vector<Problem> detector_problems(int first_id);

/// Nearest size >= n that is 2^a 3^b 5^c 7^d with exactly `terms` distinct primes (1..4), or with
/// any number of them (terms = 0, "1-4 terms"); searched up to the power-of-two cap (the
/// smallest power of two >= n). Empty when none exists.
std::optional<index_t> nearest_recommended(index_t n, int terms);

/// Summary statistics of one column.
struct Stats {
  std::size_t count = 0;
  double mean = kNaN, std = kNaN, min = kNaN, q25 = kNaN, median = kNaN, q75 = kNaN, max = kNaN;
};
Stats stats_of(std::vector<double> v);

/// A Measurer that measures each distinct configuration once per problem and remembers what
/// each measurement cost, so find's cost can be charged even when it reuses a measurement.
class CachingMeasurer final : public fft::Measurer {
public:
  explicit CachingMeasurer(fft::Measurer& inner) : inner_(inner) {}
  fft::Measurement measure(const fft::Candidate& c, const fft::Protocol& p) override;
  std::string device_identity() const override { return inner_.device_identity(); }
  std::string library_versions() const override { return inner_.library_versions(); }
  std::string device_uuid() const override { return inner_.device_uuid(); }
  std::size_t default_memory_limit() const override { return inner_.default_memory_limit(); }

  void clear() { cache_.clear(); }
  /// Wall seconds of the measurements served (fresh or from the cache) since the last reset, and
  /// of the fresh ones only.
  double charged_s() const { return charged_s_; }
  double fresh_s() const { return fresh_s_; }
  void reset_charge() { charged_s_ = fresh_s_ = 0; }
  int fresh_measurements() const { return fresh_; }
  int failed_measurements() const { return failed_; }

private:
  struct Entry {
    fft::Measurement m;
    double wall_s = 0;
  };
  fft::Measurer& inner_;
  std::map<std::string, Entry> cache_;
  double charged_s_ = 0, fresh_s_ = 0;
  int fresh_ = 0, failed_ = 0;
};

/// What one backend (GPU with cuFFT, or CPU with FFTW) contributes to a part.
struct BackendSetup {
  std::string name;                     ///< "gpu" / "cpu"
  std::string library;                  ///< "cuFFT" / "FFTW"
  fft::Measurer* measurer = nullptr;
  const fft::Profile* heuristic = nullptr; ///< first proposal ("heuristic" column)
  const fft::Profile* tuned = nullptr;     ///< candidates of find ("autotuned" / "tuned")
  const fft::Profile* portable = nullptr;
  const fft::ScratchModel* scratch = nullptr;
  int top = 20;
  int window = 0;                       ///< proximity window of find (0: default)
  fft::Protocol protocol;
  bool remeasure = true;
};

/// One measured column of one problem.
struct Cell {
  bool present = false;                 ///< the column exists for this problem (k-term sizes may not)
  fft::Candidate config;
  fft::Measurement m;
  double change_pct = kNaN;             ///< element-count change against the request
  double speedup = kNaN;                ///< original / this, per signal (both measured)
  std::string note;                     ///< why absent / failed
};

struct Row {
  Problem problem;
  bool ok = false;                      ///< the original was measured
  std::string error;
  std::vector<Cell> cells;              ///< in the part's column order; cells[0] = original
  double find_wall_s = kNaN, find_cost_s = kNaN;
  int find_ranked = 0;
  bool find_budget_exhausted = false;
  double tuned_find_ms = kNaN;          ///< the selection's median as measured inside find
  double tuned_find_speedup = kNaN;
};

enum class PartKind { G1, G2 };

struct Part {
  std::string name;                     ///< "G1 1D", "G2 2D", "G2 detectors"
  std::string backend;                  ///< "gpu" / "cpu"
  PartKind kind = PartKind::G1;
  std::vector<std::string> columns;
  std::vector<Row> rows;
  int requested = 0;
  int top = 0;                          ///< T of find
  bool skipped = false;
  std::string skip_reason;
  bool stopped_by_budget = false;
  bool aborted = false;
  std::string abort_reason;
  double elapsed_s = 0, budget_s = 0;
  int measurements = 0, failed_measurements = 0;
};

std::vector<std::string> g1_columns();   ///< original, 1..4 terms, 1-4 terms, heuristic, portable, autotuned
std::vector<std::string> g2_columns();   ///< original, portable, heuristic, tuned

/// Measures every column of one problem (alternating the order of find and the fixed columns by
/// problem id). Never throws for measurement failures; throws for heuristic bugs (caught by the
/// caller). `deadline` bounds find's budget.
Row run_problem(const Problem& p, PartKind kind, const BackendSetup& b, CachingMeasurer& cache,
                Clock::time_point deadline);

/// CSV of a part, appended row by row (so a crash keeps what was measured).
class CsvWriter {
public:
  CsvWriter() = default;
  bool open(const std::string& path, const Part& part);
  void write(const Row& row);

private:
  std::FILE* f_ = nullptr;
  std::shared_ptr<std::FILE> owner_;
};

/// Report of one part on stdout; fills `verdicts` with (passed, text) per requirement.
struct Verdict {
  bool pass = false;
  std::string text;
};
std::vector<Verdict> report_part(const Part& part, bool informational);
/// Per-size table of the detector problems.
void report_detectors(const Part& part);

/// Key of a configuration as the measurers see it (size, signals per execution, options).
std::string config_key(const fft::Candidate& c);

} // namespace frost::bench
