#pragma once
/// @file size_advisor.hpp
/// @brief The call every frost program makes when it is free to pad or crop before an FFT
/// (docs/fft_advisor.md#library-api-for-programs): which size to use, how many signals fit one
/// execution, and why.
#include <array>
#include <cstddef>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "frost/fft/advisor_types.hpp"

namespace frost::fft {

/// What a program asks (docs/fft_advisor.md#library-api-for-programs).
struct SizeQuery {
  Extent shape;                    ///< requested size of one signal
  index_t signals = 1;             ///< signals the caller transforms per call
  Precision precision = Precision::F32;
  Kind kind = Kind::R2C;
  Placement placement = Placement::OutOfPlace;
  Resize resize = Resize::Pad;
  double max_change_pct = 10.0;    ///< limit on the element-count change
  int optimize_dims = 0;           ///< 0 = all non-unit dimensions
  std::array<Parity, 3> parity{Parity::Any, Parity::Any, Parity::Any};
  bool square_only = false;
  std::size_t mem_limit_bytes = 0; ///< 0 = backend default (GPU: free memory - 5 %; CPU: none)
  Policy policy = Policy::Portable;
  int measure_top = 10;            ///< T for Policy::Tuned
};

/// The answer.
struct SizeAdvice {
  Extent shape;                    ///< size to use
  index_t batch = 1;               ///< signals per execution that fit the memory limit
  double change_pct = 0;
  int kernels_estimate = 0;
  double ms_per_signal = std::numeric_limits<double>::quiet_NaN(); ///< NaN unless measured
  std::size_t required_bytes = 0;  ///< data + scratch of one execution of `batch` signals
  Source source = Source::Heuristic;
  std::string profile;             ///< e.g. "portable/portable-r1"
};

/// Settings of an advisor that are not part of a query.
struct AdvisorOptions {
  std::string cache_dir;           ///< "" = default_cache_dir()
  bool use_cache = true;           ///< Tuned answers are looked up in / written to the cache
  bool refresh = false;            ///< ignore cache hits (and overwrite)
  double lock_wait_s = 120;        ///< per-device measurement lock (docs/fft_advisor.md#measurement-lock)
  Protocol protocol;               ///< measurement protocol for Tuned
};

class Measurer;

/// Thread-safe advisor for one backend and device (docs/fft_advisor.md#library-api-for-programs). Portable
/// and Exact answers never touch the GPU; Tuned measures (once, then the persistent cache answers).
class SizeAdvisor {
public:
  SizeAdvisor(Backend backend, int device = 0, AdvisorOptions options = {});
  ~SizeAdvisor();
  SizeAdvisor(const SizeAdvisor&) = delete;
  SizeAdvisor& operator=(const SizeAdvisor&) = delete;

  /// @throw NoCandidate when nothing satisfies the query (callers fall back to Policy::Exact);
  /// frost::Error(Usage) for an invalid query.
  SizeAdvice advise(const SizeQuery& q);
  /// Ranked heuristic candidates for the query's policy, without measuring.
  std::vector<Candidate> candidates(const SizeQuery& q, std::size_t count);

private:
  SizeAdvice advise_tuned(const SizeQuery& q);
  Measurer& measurer();
  Backend backend_;
  int device_;
  AdvisorOptions options_;
  std::unique_ptr<Measurer> measurer_;
  std::mutex mutex_;
};

/// The request the heuristic sees for a query under a profile (used by advise and tests).
AdvisorRequest to_request(const SizeQuery& q);
/// The profile a policy uses on a backend: Exact/Portable -> portable; Tuned -> cuda12 or fftw.
const Profile& profile_for(Policy policy, Backend backend);

struct CacheRecord;
struct FindResult;
/// The cache record of a find result: its selected configuration, the medians, provenance.
CacheRecord measured_record(const std::string& key, const FindResult& found, const Protocol& protocol,
                            const std::string& device_uuid);

/// advise() on a process-wide advisor for the CPU backend (Portable and Exact answers are the
/// same on every backend, so programs that do not tune call this).
SizeAdvice advise(const SizeQuery& q);

/// Names for logs and metadata: "exact", "portable", "tuned" and "identity", "heuristic", "cache",
/// "measured"; parse_policy throws frost::Error(Usage) (for --fft-size-policy).
std::string to_string(Policy p);
std::string to_string(Source s);
Policy parse_policy(const std::string& text);

} // namespace frost::fft
