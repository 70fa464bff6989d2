#include "frost/fft/cached_find.hpp"

#include <optional>

#include "frost/fft/size_advisor.hpp"

namespace frost::fft {

namespace {

// The answer of a hit as a candidate carrying its stored median.
Candidate from_record(const CacheRecord& r) {
  Candidate c = r.answer;
  if (r.ms_per_signal) {
    Measurement m;
    m.median_ms_per_signal = m.mean_ms_per_signal = m.min_ms_per_signal = *r.ms_per_signal;
    m.ms_per_exec = *r.ms_per_signal * static_cast<double>(c.batch);
    m.samples = r.protocol.reps;
    c.measured = m;
  }
  return c;
}

std::string memory_suffix(std::size_t limit_bytes) {
  std::size_t mib = limit_bytes / (1024 * 1024), pow2 = 1;
  while (pow2 * 2 <= mib) pow2 *= 2;
  return "|mem" + std::to_string(mib == 0 ? 0 : pow2) + "MiB";
}

} // namespace

CachedFind find_cached(const AdvisorRequest& req, const Profile& profile, const ScratchModel& scratch,
                       Measurer& measurer, const Protocol& protocol, int top, Policy policy,
                       const CacheSettings& settings) {
  CachedFind out;
  const CacheContext ctx{measurer.device_identity(), measurer.library_versions(), policy, top};
  out.key = cache_key(req, profile, ctx);
  const std::size_t limit = req.mem_limit_bytes.value_or(0);

  std::optional<AdvisorCache> cache;
  if (settings.use_cache) {
    cache.emplace(settings.dir);
    // An unlimited answer that does not fit this limit sends us to the limit's own key.
    const auto unlimited = cache->lookup(out.key, 0);
    if (limit > 0 && unlimited && unlimited->required_bytes > limit) out.key += memory_suffix(limit);
    if (!settings.refresh) {
      if (auto hit = cache->lookup(out.key, limit)) {
        out.result.ranked = {from_record(*hit)};
        out.source = Source::Cache;
        return out;
      }
    }
  }

  // Measuring while another process measures on the same device gives wrong numbers
  // (docs/fft_advisor.md#measurement-lock).
  const std::string lock_dir = settings.dir.empty() ? default_cache_dir() : settings.dir;
  DeviceLock lock(lock_dir, measurer.device_uuid().empty() ? ctx.device_identity : measurer.device_uuid(),
                  settings.lock_wait_s);
  if (!lock.held()) {
    out.lock_busy = true;
    out.source = Source::Heuristic;
    return out;
  }
  if (cache) measurer.begin_session(settings.dir);
  out.result = find(req, profile, scratch, measurer, protocol, top);
  if (cache) {
    measurer.end_session(settings.dir);
    cache->store(measured_record(out.key, out.result, protocol, measurer.device_uuid()));
  }
  out.source = Source::Measured;
  return out;
}

} // namespace frost::fft
