// The canonical cache key (docs/fft_advisor.md#cache-key) and the JSON form of one cache record. Field names
// and enum spellings follow the candidate object of docs/fft_advisor.md#outputs-and-exit-codes wherever the
// two overlap, so a record's "answer" reads like one row of `frost_fft_advisor find --format json`.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "frost/cache/json_fields.hpp"
#include "frost/cache/text_hash.hpp"
#include "frost/fft/advisor_cache.hpp"

namespace frost::fft {

namespace {

using nlohmann::json;
using cache::get_bool;
using cache::get_double;
using cache::get_int;
using cache::get_optional_double;
using cache::get_string;
using cache::get_text;
using cache::hex64;
using cache::member;
using cache::number_or_null;
using cache::optional_number;
using cache::text_or_null;

/// Version of the key layout and of the record format ("record" field); bump on any change.
constexpr int kRecordVersion = 1;
/// Lines are written with one write() under flock; the bound keeps each one a small, whole unit.
constexpr std::size_t kMaxLineBytes = 4096;

// ---- enum spellings (option values and JSON values of the program) --------------------------------

const char* name_of(Precision p) { return p == Precision::F32 ? "f32" : "f64"; }
const char* name_of(Kind k) { return k == Kind::R2C ? "r2c" : k == Kind::C2R ? "c2r" : "c2c"; }
const char* name_of(Direction d) { return d == Direction::Forward ? "forward" : "inverse"; }
const char* name_of(Placement p) { return p == Placement::OutOfPlace ? "out" : "in"; }
const char* name_of(Resize r) { return r == Resize::Pad ? "pad" : r == Resize::Crop ? "crop" : "keep"; }
const char* name_of(Parity p) { return p == Parity::Any ? "any" : p == Parity::Even ? "even" : "odd"; }
const char* name_of(TieBreak t) { return t == TieBreak::Closest ? "closest" : "elements"; }
const char* name_of(Policy p) {
  return p == Policy::Exact ? "exact" : p == Policy::Portable ? "portable" : "tuned";
}
const char* yes_no(bool b) { return b ? "yes" : "no"; }

/// Inverse of name_of over all values of E; throws (the record is malformed) for other text.
template <class E, std::size_t N>
E parse_enum(const std::string& text, const E (&values)[N]) {
  for (E v : values)
    if (text == name_of(v)) return v;
  throw std::runtime_error("unknown value '" + text + "'");
}
constexpr Precision kPrecisions[] = {Precision::F32, Precision::F64};
constexpr Kind kKinds[] = {Kind::R2C, Kind::C2R, Kind::C2C};
constexpr Direction kDirections[] = {Direction::Forward, Direction::Inverse};
constexpr Placement kPlacements[] = {Placement::OutOfPlace, Placement::InPlace};

// ---- key -------------------------------------------------------------------------------------

/// "f32,f64": sorted and deduplicated, so requests that allow the same alternatives in a
/// different order (or twice) share one key.
template <class E>
std::string join_set(std::vector<E> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::string out;
  for (E v : values) out += (out.empty() ? "" : ",") + std::string(name_of(v));
  return out;
}

std::string join_batched(const std::vector<bool>& b) {
  const bool yes = std::find(b.begin(), b.end(), true) != b.end();
  const bool no = std::find(b.begin(), b.end(), false) != b.end();
  return yes && no ? "yes,no" : yes ? "yes" : no ? "no" : "";
}

std::string max_change_text(const std::optional<double>& pct) {
  if (!pct) return "unlimited";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", *pct);
  return buf;
}

// ---- candidate -------------------------------------------------------------------------------

json candidate_to_json(const Candidate& c) {
  const bool m = c.measured.has_value();
  json j;
  j["size"] = {c.size.x, c.size.y, c.size.z};
  j["batch"] = c.batch;
  j["kind"] = name_of(c.kind);
  j["precision"] = name_of(c.precision);
  j["placement"] = name_of(c.placement);
  j["direction"] = name_of(c.direction);
  j["plan"] = c.batched ? "many" : "single";
  j["rotated"] = c.rotated;
  j["change_pct"] = number_or_null(c.change_pct);
  j["kernels_est"] = {c.kernels[0], c.kernels[1], c.kernels[2]};
  j["kernels_total"] = c.kernels_total;
  j["terms"] = c.terms;
  j["data_bytes"] = c.data_bytes;
  j["plan_bytes_estimate"] = c.plan_bytes_estimate;
  // Measured fields are null (not 0) when nothing was measured.
  j["status"] = m ? json(c.measured->status) : json(nullptr);
  j["error"] = m ? text_or_null(c.measured->error) : json(nullptr);
  j["plan_ms"] = m ? number_or_null(c.measured->plan_ms) : json(nullptr);
  j["ms_per_signal"] = m ? json{{"median", number_or_null(c.measured->median_ms_per_signal)},
                                {"mean", number_or_null(c.measured->mean_ms_per_signal)},
                                {"min", number_or_null(c.measured->min_ms_per_signal)},
                                {"std", number_or_null(c.measured->std_ms_per_signal)},
                                {"n", c.measured->samples}}
                         : json(nullptr);
  j["ms_per_exec"] = m ? number_or_null(c.measured->ms_per_exec) : json(nullptr);
  j["plan_bytes_actual"] = m ? json(c.measured->plan_bytes_actual) : json(nullptr);
  j["speedup_vs_original"] = !m && c.speedup_vs_original == 0 ? json(nullptr) : number_or_null(c.speedup_vs_original);
  return j;
}

Candidate candidate_from_json(const json& j) {
  if (!j.is_object()) throw std::runtime_error("answer is not an object");
  Candidate c;
  const json& size = member(j, "size");
  if (!size.is_array() || size.size() != 3) throw std::runtime_error("size is not [x, y, z]");
  for (int d = 0; d < 3; ++d) {
    if (!size[static_cast<std::size_t>(d)].is_number_integer()) throw std::runtime_error("size is not integral");
    c.size[d] = size[static_cast<std::size_t>(d)].get<index_t>();
  }
  c.batch = get_int<index_t>(j, "batch");
  c.kind = parse_enum(get_string(j, "kind"), kKinds);
  c.precision = parse_enum(get_string(j, "precision"), kPrecisions);
  c.placement = parse_enum(get_string(j, "placement"), kPlacements);
  c.direction = parse_enum(get_string(j, "direction"), kDirections);
  const std::string plan = get_string(j, "plan");
  if (plan != "many" && plan != "single") throw std::runtime_error("unknown plan '" + plan + "'");
  c.batched = plan == "many";
  c.rotated = get_bool(j, "rotated");
  c.change_pct = get_double(j, "change_pct");
  const json& k = member(j, "kernels_est");
  if (!k.is_array() || k.size() != 3) throw std::runtime_error("kernels_est is not a triple");
  for (std::size_t d = 0; d < 3; ++d) {
    if (!k[d].is_number_integer()) throw std::runtime_error("kernels_est is not integral");
    c.kernels[d] = k[d].get<int>();
  }
  c.kernels_total = get_int<int>(j, "kernels_total");
  c.terms = get_int<int>(j, "terms");
  c.data_bytes = get_int<std::size_t>(j, "data_bytes");
  c.plan_bytes_estimate = get_int<std::size_t>(j, "plan_bytes_estimate");
  if (!member(j, "status").is_null()) {
    Measurement m;
    m.status = get_string(j, "status");
    m.error = get_text(j, "error");
    m.plan_ms = get_double(j, "plan_ms");
    const json& s = member(j, "ms_per_signal");
    if (!s.is_object()) throw std::runtime_error("ms_per_signal is not an object");
    m.median_ms_per_signal = get_double(s, "median");
    m.mean_ms_per_signal = get_double(s, "mean");
    m.min_ms_per_signal = get_double(s, "min");
    m.std_ms_per_signal = get_double(s, "std");
    m.samples = get_int<int>(s, "n");
    m.ms_per_exec = get_double(j, "ms_per_exec");
    m.plan_bytes_actual = get_int<std::size_t>(j, "plan_bytes_actual");
    c.measured = m;
  }
  c.speedup_vs_original = member(j, "speedup_vs_original").is_null() ? 0.0 : get_double(j, "speedup_vs_original");
  return c;
}

// ---- protocol --------------------------------------------------------------------------------

json protocol_to_json(const Protocol& p) {
  return json{{"warmup", p.warmup},
              {"reps", p.reps},
              {"min_total_ms", number_or_null(p.min_total_ms)},
              {"max_samples", p.max_samples},
              {"cache_state", p.cold_cache ? "cold" : "warm"},
              {"seed", p.seed},
              {"budget_s", number_or_null(p.budget_s)},
              {"fftw_threads", p.fftw_threads},
              {"fftw_effort", to_string(p.fftw_effort)}};
}

Protocol protocol_from_json(const json& j) {
  if (!j.is_object()) throw std::runtime_error("protocol is not an object");
  Protocol p;
  p.warmup = get_int<int>(j, "warmup");
  p.reps = get_int<int>(j, "reps");
  p.min_total_ms = get_double(j, "min_total_ms");
  p.max_samples = get_int<int>(j, "max_samples");
  const std::string state = get_string(j, "cache_state");
  if (state != "cold" && state != "warm") throw std::runtime_error("unknown cache_state '" + state + "'");
  p.cold_cache = state == "cold";
  p.seed = get_int<std::uint32_t>(j, "seed");
  p.budget_s = get_double(j, "budget_s");
  p.fftw_threads = get_int<int>(j, "fftw_threads");
  p.fftw_effort = parse_rigor(get_string(j, "fftw_effort"));
  return p;
}

} // namespace

std::string cache_key(const AdvisorRequest& req, const Profile& profile, const CacheContext& ctx) {
  const bool any_c2c = std::find(req.kinds.begin(), req.kinds.end(), Kind::C2C) != req.kinds.end();
  std::ostringstream k;
  k << kRecordVersion << '|' << ctx.device_identity << '|' << ctx.library_versions << '|' << profile.name
    << '/' << profile.version;
  k << "|size=" << req.size.x << 'x' << req.size.y << 'x' << req.size.z;
  k << "|signals=" << req.signals;
  k << "|precision=" << join_set(req.precisions);
  k << "|kind=" << join_set(req.kinds);
  // R2C and C2R imply their direction: the directions list only means something for C2C.
  k << "|direction=" << (any_c2c ? join_set(req.directions) : std::string("implied"));
  k << "|placement=" << join_set(req.placements);
  k << "|batched=" << join_batched(req.batched);
  k << "|mode=" << name_of(req.resize);
  k << "|max_change=" << max_change_text(req.max_change_pct);
  k << "|optimize_dims=" << (req.optimize_dims <= 0 ? std::string("all") : std::to_string(req.optimize_dims));
  k << "|parity=" << name_of(req.parity[0]) << ',' << name_of(req.parity[1]) << ',' << name_of(req.parity[2]);
  k << "|square_only=" << yes_no(req.square_only);
  k << "|rotation=" << yes_no(req.allow_rotation);
  k << "|transposition=" << yes_no(req.allow_transposition);
  k << "|tie_break=" << name_of(req.tie_break);
  k << "|policy=" << name_of(ctx.policy);
  k << "|top=" << ctx.top;
  return k.str();
}

std::uint64_t cache_key_hash(const std::string& key) { return cache::fnv1a64(key); }

std::string record_to_json(const CacheRecord& r) {
  json j;
  j["record"] = kRecordVersion;
  j["key"] = r.key;
  // Hex text: JSON readers without 64-bit integers would round the number; the text also lets a
  // lookup find candidate lines with a substring search before parsing them.
  j["hash"] = hex64(cache_key_hash(r.key));
  j["source"] = r.source;
  j["answer"] = candidate_to_json(r.answer);
  j["required_bytes"] = r.required_bytes;
  j["ms_per_signal"] = optional_number(r.ms_per_signal);
  j["original_ms_per_signal"] = optional_number(r.original_ms_per_signal);
  j["candidates_measured"] = r.candidates_measured;
  j["protocol"] = protocol_to_json(r.protocol);
  j["tool_version"] = r.tool_version;
  j["host"] = r.host;
  j["time"] = r.time_iso8601;
  j["device_uuid"] = r.device_uuid;
  // Replace invalid UTF-8 (a strange CPU or device name) instead of throwing.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<CacheRecord> record_from_json(const std::string& line) {
  if (line.size() > kMaxLineBytes) return std::nullopt;
  try {
    const json j = json::parse(line);
    if (!j.is_object() || get_int<int>(j, "record") != kRecordVersion) return std::nullopt;
    CacheRecord r;
    r.key = get_string(j, "key");
    // A hash that disagrees with the key means the line was damaged or edited by hand.
    if (get_string(j, "hash") != hex64(cache_key_hash(r.key))) return std::nullopt;
    r.source = get_string(j, "source");
    r.answer = candidate_from_json(member(j, "answer"));
    r.required_bytes = get_int<std::size_t>(j, "required_bytes");
    r.ms_per_signal = get_optional_double(j, "ms_per_signal");
    r.original_ms_per_signal = get_optional_double(j, "original_ms_per_signal");
    r.candidates_measured = get_int<int>(j, "candidates_measured");
    r.protocol = protocol_from_json(member(j, "protocol"));
    r.tool_version = get_string(j, "tool_version");
    r.host = get_string(j, "host");
    r.time_iso8601 = get_string(j, "time");
    r.device_uuid = get_string(j, "device_uuid");
    return r;
  } catch (const std::exception&) {
    return std::nullopt; // any parse or type problem: the line is malformed
  }
}

} // namespace frost::fft
