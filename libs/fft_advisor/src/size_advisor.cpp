#include "frost/fft/size_advisor.hpp"



#include "frost/core/log.hpp"
#include "frost/core/version.hpp"
#include "frost/fft/advisor_backend.hpp"
#include "frost/fft/advisor_cache.hpp"
#include "frost/fft/cached_find.hpp"
#include "frost/fft/heuristic.hpp"

namespace frost::fft {

namespace {

SizeAdvice from_candidate(const Candidate& c, const Profile& profile, Source source) {
  SizeAdvice a;
  a.shape = c.size;
  a.batch = c.batch;
  a.change_pct = c.change_pct;
  a.kernels_estimate = c.kernels_total;
  a.required_bytes = c.required_bytes();
  if (c.measured && c.measured->ok()) a.ms_per_signal = c.measured->median_ms_per_signal;
  a.source = source;
  a.profile = profile.name + "/" + profile.version;
  return a;
}

} // namespace

std::string to_string(Policy p) {
  switch (p) {
  case Policy::Exact: return "exact";
  case Policy::Portable: return "portable";
  case Policy::Tuned: return "tuned";
  }
  return "portable";
}

std::string to_string(Source s) {
  switch (s) {
  case Source::Identity: return "identity";
  case Source::Heuristic: return "heuristic";
  case Source::Cache: return "cache";
  case Source::Measured: return "measured";
  }
  return "heuristic";
}

Policy parse_policy(const std::string& t) {
  if (t == "exact") return Policy::Exact;
  if (t == "portable") return Policy::Portable;
  if (t == "tuned") return Policy::Tuned;
  throw_usage_error("--fft-size-policy: expected exact, portable or tuned but got '" + t + "'");
}

AdvisorRequest to_request(const SizeQuery& q) {
  AdvisorRequest r;
  r.size = q.shape;
  r.signals = q.signals;
  r.precisions = {q.precision};
  r.kinds = {q.kind};
  r.directions = {q.kind == Kind::C2R ? Direction::Inverse : Direction::Forward};
  r.placements = {q.placement};
  r.batched = {true};
  r.resize = q.policy == Policy::Exact ? Resize::Keep : q.resize;
  r.max_change_pct = q.max_change_pct;
  r.optimize_dims = q.optimize_dims;
  r.parity = q.parity;
  r.square_only = q.square_only;
  r.count = 1;
  return r;
}

const Profile& profile_for(Policy policy, Backend backend) {
  if (policy != Policy::Tuned) return builtin_profile("portable");
  return builtin_profile(backend == Backend::Cuda ? "cuda12" : "fftw");
}

SizeAdvisor::SizeAdvisor(Backend backend, int device, AdvisorOptions options)
    : backend_(backend), device_(device), options_(std::move(options)) {}

SizeAdvisor::~SizeAdvisor() = default;

Measurer& SizeAdvisor::measurer() {
  if (!measurer_)
    measurer_ = backend_ == Backend::Cuda ? make_cufft_measurer(device_) : make_fftw_measurer(options_.protocol.fftw_threads);
  return *measurer_;
}

std::vector<Candidate> SizeAdvisor::candidates(const SizeQuery& q, std::size_t count) {
  AdvisorRequest r = to_request(q);
  r.count = static_cast<int>(count);
  return recommend(r, profile_for(q.policy, backend_), *worst_case_scratch_model());
}

SizeAdvice SizeAdvisor::advise(const SizeQuery& q) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (q.policy == Policy::Tuned) return advise_tuned(q);

  // Exact and Portable: the size never depends on the machine (the memory limit only sets the
  // batch), so CPU and GPU runs of one command use the same FFT sizes (docs/fft_advisor.md#policies).
  const Profile& profile = profile_for(q.policy, backend_);
  const auto scratch = worst_case_scratch_model();
  AdvisorRequest r = to_request(q);
  const Candidate chosen = recommend(r, profile, *scratch).front();

  AdvisorRequest sized = r;
  sized.size = chosen.size;
  sized.resize = Resize::Keep;
  std::size_t limit = q.mem_limit_bytes;
  if (limit == 0 && backend_ == Backend::Cuda) limit = measurer().default_memory_limit();
  if (limit > 0) sized.mem_limit_bytes = limit;
  const Candidate batched = recommend(sized, profile, *scratch).front();
  return from_candidate(batched, profile, q.policy == Policy::Exact ? Source::Identity : Source::Heuristic);
}

SizeAdvice SizeAdvisor::advise_tuned(const SizeQuery& q) {
  const Profile& profile = profile_for(Policy::Tuned, backend_);
  Measurer& m = measurer();
  AdvisorRequest r = to_request(q);
  std::size_t limit = q.mem_limit_bytes ? q.mem_limit_bytes : m.default_memory_limit();
  if (limit > 0) r.mem_limit_bytes = limit;
  auto device_scratch = m.device_scratch_model();
  const auto worst = worst_case_scratch_model();
  const ScratchModel& scratch = device_scratch ? *device_scratch : *worst;

  CacheSettings cs;
  cs.dir = default_cache_dir(options_.cache_dir);
  cs.use_cache = options_.use_cache;
  cs.refresh = options_.refresh;
  cs.lock_wait_s = options_.lock_wait_s;
  const CachedFind cached = find_cached(r, profile, scratch, m, options_.protocol, q.measure_top, Policy::Tuned, cs);
  if (cached.lock_busy) {
    // Without the device's measurement lock this run takes the heuristic answer and stores nothing.
    log_warning("FFT size advisor: the measurement lock for this device is busy; using the heuristic size");
    return from_candidate(recommend(r, profile, scratch).front(), profile, Source::Heuristic);
  }
  const FindResult& found = cached.result;
  return from_candidate(found.ranked.at(static_cast<std::size_t>(found.selected)), profile, cached.source);
}

CacheRecord measured_record(const std::string& key, const FindResult& found, const Protocol& protocol,
                            const std::string& device_uuid) {
  const Candidate& best = found.ranked.at(static_cast<std::size_t>(found.selected));
  CacheRecord r;
  r.key = key;
  r.answer = best;
  if (best.measured && best.measured->ok()) r.ms_per_signal = best.measured->median_ms_per_signal;
  if (found.original.measured && found.original.measured->ok())
    r.original_ms_per_signal = found.original.measured->median_ms_per_signal;
  r.candidates_measured = static_cast<int>(found.ranked.size());
  r.protocol = protocol;
  r.source = "measured";
  r.tool_version = version_string();
  // host and time: left empty, AdvisorCache::store stamps them
  r.device_uuid = device_uuid;
  r.required_bytes = best.required_bytes();
  return r;
}

SizeAdvice advise(const SizeQuery& q) {
  static SizeAdvisor cpu(Backend::Cpu);
  return cpu.advise(q);
}

} // namespace frost::fft
