#pragma once
/// @file cached_find.hpp
/// @brief `find` behind the persistent cache and the device lock (docs/fft_advisor.md#answer-cache
/// and #measurement-lock): what both frost_fft_advisor and SizeAdvisor (Policy::Tuned) do.
#include <string>

#include "frost/fft/advisor_backend.hpp"
#include "frost/fft/advisor_cache.hpp"
#include "frost/fft/heuristic.hpp"

namespace frost::fft {

/// Where and whether answers are cached.
struct CacheSettings {
  std::string dir;            ///< resolved cache directory (default_cache_dir())
  bool use_cache = true;      ///< read and write answers (and FFTW wisdom) in `dir`
  bool refresh = false;       ///< ignore hits, overwrite
  double lock_wait_s = 120;   ///< wait for the device's measurement lock
};

/// The outcome of a cached find.
struct CachedFind {
  FindResult result;          ///< on a hit: one candidate (the stored answer, its median as measured)
  Source source = Source::Measured; ///< Cache, Measured, or Heuristic when the lock was busy
  bool lock_busy = false;     ///< another process was measuring: nothing measured, `result` empty
  std::string key;            ///< the key the answer is stored under
};

/// Looks the request up; on a miss takes the device lock, measures with find(), stores the
/// selected answer. A stored answer that needs more memory than req.mem_limit_bytes is a miss;
/// the answer found under that limit is stored with `|mem<N>MiB` (N: the limit in MiB rounded
/// down to a power of two) appended to the key, and looked up there next time
/// (docs/fft_advisor.md#answer-cache).
CachedFind find_cached(const AdvisorRequest& req, const Profile& profile, const ScratchModel& scratch,
                       Measurer& measurer, const Protocol& protocol, int top, Policy policy,
                       const CacheSettings& cache);

} // namespace frost::fft
