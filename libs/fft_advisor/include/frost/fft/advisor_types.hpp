#pragma once
/// @file advisor_types.hpp
/// @brief The vocabulary of the FFT size advisor (docs/fft_advisor.md#terms): profiles, requests,
/// candidates and measurements. Shared by the heuristic, the measurers (FFTW, cuFFT), the
/// persistent cache, the frost_fft_advisor program and the SizeAdvisor API.
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frost/fft/spec.hpp"

namespace frost::fft {

enum class Resize { Pad, Crop, Keep };     ///< how sizes may change
enum class Parity { Any, Even, Odd };      ///< per-dimension parity request
enum class TieBreak { Closest, Elements }; ///< rule 4 of docs/fft_advisor.md#ranking
enum class Policy { Exact, Portable, Tuned };
enum class Source { Identity, Heuristic, Cache, Measured };

/// Sizes of one signal (x fastest). Unused dimensions are 1.
struct Extent {
  index_t x = 1, y = 1, z = 1;
  index_t operator[](int d) const { return d == 0 ? x : d == 1 ? y : z; }
  index_t& operator[](int d) { return d == 0 ? x : d == 1 ? y : z; }
  index_t elements() const { return x * y * z; }
  int rank() const { return z > 1 ? 3 : y > 1 ? 2 : 1; }
  friend bool operator==(const Extent& a, const Extent& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
  friend bool operator!=(const Extent& a, const Extent& b) { return !(a == b); }
};
std::string to_string(const Extent& e); ///< "2304x1x1"
/// Parses "X", "XxY" or "XxYxZ"; frost::Error(Usage) otherwise.
Extent parse_extent(const std::string& text);

/// When a dimension must be even ("parity rule" in docs/fft_advisor.md#profiles).
enum class EvenRule {
  Never,          ///< odd sizes allowed
  Always,         ///< only even sizes
  AboveRegular    ///< odd sizes only up to the profile's regular (single-launch) limit
};

/// A named model of one FFT library's size behaviour (docs/fft_advisor.md#profiles). Data, not
/// code: a new CUDA release gets a new profile (and version string, part of every cache key).
struct Profile {
  std::string name;            ///< "cuda12", "cuda8", "portable", "fftw"
  std::string version;         ///< e.g. "cuda12-r1"
  std::vector<int> primes;     ///< allowed primes, ascending (2, 3, 5, 7[, 11])
  /// Extra primes allowed at most once in total (FFTW: one factor 11 or 13).
  std::vector<int> single_extra_primes;
  EvenRule real_rule = EvenRule::Always;    ///< for R2C/C2R
  EvenRule complex_rule = EvenRule::Always; ///< for C2C
  bool has_kernel_model = true;             ///< false: every admissible size counts 1 (fftw)
  /// Sizes up to this count as one launch (0 = no regular limit); [0] float, [1] double.
  std::array<index_t, 2> regular_limit{0, 0};
  /// Largest exponent one launch handles, per prime; [0] float, [1] double.
  std::array<std::map<int, int>, 2> caps;
};

/// The built-in profiles; frost::Error(Usage) for an unknown name.
const Profile& builtin_profile(const std::string& name);
std::vector<std::string> builtin_profile_names();

/// Kernel estimate of a non-smooth size (docs/fft_advisor.md#kernel-estimate): large and finite, so
/// sums never overflow.
constexpr int kBadKernels = 1000;

/// What the caller asks for (docs/fft_advisor.md#request-and-validation). Lists hold the allowed
/// alternatives ("both" = two entries).
struct AdvisorRequest {
  Extent size;
  index_t signals = 1;
  std::vector<Precision> precisions{Precision::F32};
  std::vector<Kind> kinds{Kind::R2C};
  std::vector<Direction> directions{Direction::Forward}; ///< C2C only; R2C/C2R imply theirs
  std::vector<Placement> placements{Placement::OutOfPlace};
  std::vector<bool> batched{true};        ///< "many" plan (true) or one signal per execution
  Resize resize = Resize::Pad;
  std::optional<double> max_change_pct;   ///< empty: unlimited up to the power-of-two cap
  int optimize_dims = 0;                  ///< only the first K dimensions may change; 0 = all
  std::array<Parity, 3> parity{Parity::Any, Parity::Any, Parity::Any};
  bool square_only = false;
  bool allow_rotation = false;
  bool allow_transposition = false;
  std::optional<std::size_t> mem_limit_bytes; ///< empty: no limit
  int window = 0;                         ///< proximity window W; 0 = max(10, count)
  TieBreak tie_break = TieBreak::Closest;
  int count = 10;                         ///< results returned
};

/// Timing of one configuration (docs/fft_advisor.md#measurement-protocol). Times in milliseconds.
struct Measurement {
  std::string status = "ok";              ///< "ok", or "error" with `error` set
  std::string error;
  double plan_ms = 0;
  double median_ms_per_signal = 0, mean_ms_per_signal = 0, min_ms_per_signal = 0, std_ms_per_signal = 0;
  int samples = 0;
  double ms_per_exec = 0;                 ///< median time of one execution (batch signals)
  std::size_t plan_bytes_actual = 0;      ///< scratch actually used (cufftGetSize after planning)
  bool ok() const { return status == "ok"; }
};

/// One configuration: sizes plus transform options, with the heuristic's and (after `find`)
/// the measurement's view of it.
struct Candidate {
  Extent size;
  index_t batch = 1;                      ///< signals per execution
  Precision precision = Precision::F32;
  Kind kind = Kind::R2C;
  Direction direction = Direction::Forward;
  Placement placement = Placement::OutOfPlace;
  bool batched = true;
  bool rotated = false;
  double change_pct = 0;                  ///< (x'y'z' - xyz) / xyz * 100
  std::array<int, 3> kernels{0, 0, 0};    ///< per-dimension estimate (0 for unit dimensions)
  int kernels_total = 0;
  int terms = 0;                          ///< distinct primes of {2,3,5,7} over the dimensions
  std::size_t data_bytes = 0;
  std::size_t plan_bytes_estimate = 0;    ///< scratch from the memory model
  std::optional<Measurement> measured;
  double speedup_vs_original = 0;         ///< filled by find: original median / this median

  std::size_t required_bytes() const { return data_bytes + plan_bytes_estimate; }
  /// The FftSpec of one execution (batch signals) of this candidate.
  FftSpec spec() const;
};

/// Prime factorisation (prime -> exponent) of a positive size.
std::map<int, int> factorize(index_t n);

/// The measurement protocol of docs/fft_advisor.md#measurement-protocol.
struct Protocol {
  int warmup = 2;
  int reps = 10;
  double min_total_ms = 20;
  int max_samples = 200;
  bool cold_cache = true;                 ///< evict L2 before every sample (GPU)
  std::uint32_t seed = 12345;
  double budget_s = 60;
  int fftw_threads = 1;
  FftRigor fftw_effort = FftRigor::Measure;
};

} // namespace frost::fft
