// JSON form of a tuning record (docs/tune.md#record), read strictly: any missing field or wrong
// type makes the line malformed, so the cache can skip it with one warning.
#include "frost/tuning/record.hpp"

#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "frost/core/error.hpp"
#include "frost/cache/json_fields.hpp"
#include "frost/tuning/phase.hpp"

namespace frost::tuning {

namespace {

using json = nlohmann::ordered_json;
using cache::get_double;
using cache::get_int;
using cache::get_optional_double;
using cache::get_string;
using cache::member;

json config_to_json(const NamedConfig& c) {
  json j = json::object();
  for (const auto& [name, value] : c) j[name] = value;
  return j;
}

NamedConfig config_from_json(const json& j) {
  if (!j.is_object() || j.empty()) throw std::runtime_error("configuration is not a non-empty object");
  NamedConfig c;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_number_integer()) throw std::runtime_error("configuration value is not an integer");
    c.emplace_back(it.key(), it.value().get<std::int64_t>());
  }
  return c;
}

/// A time in ms: finite and positive.
double get_time(const json& j, const char* name) {
  const double v = get_double(j, name);
  if (!std::isfinite(v) || v < 0) throw std::runtime_error(std::string("field '") + name + "' is not a time");
  return v;
}

} // namespace

std::string record_to_json(const TuningRecord& r) {
  json j;
  j["schema"] = r.schema;
  j["key"] = r.key;
  // Hex text: readers without 64-bit integers would round a number.
  j["hash"] = key_hash(r.key);
  j["best"] = config_to_json(r.best);
  j["best_ms"] = cache::number_or_null<json>(r.best_ms);
  j["default_ms"] = cache::optional_number<json>(r.default_ms);
  json top = json::array();
  for (const TimedConfig& t : r.top)
    top.push_back(json::array({config_to_json(t.config), cache::number_or_null<json>(t.ms)}));
  j["top"] = top;
  j["avg_over_best"] = cache::optional_number<json>(r.avg_over_best);
  j["explored"] = r.explored;
  j["space_size"] = r.space_size;
  j["invalid"] = r.invalid;
  j["searcher"] = r.searcher;
  j["seed"] = r.seed;
  j["mode"] = r.mode;
  j["protocol"] = json{{"warmup", r.protocol.warmup}, {"min_samples", r.protocol.min_samples},
                       {"min_ms", cache::number_or_null<json>(r.protocol.min_ms)}};
  j["source"] = r.source;
  j["gpu_uuid"] = r.gpu_uuid;
  j["host"] = r.host;
  j["tool"] = r.tool;
  j["time"] = r.time;
  // Invalid UTF-8 (a strange device or host name) is replaced instead of throwing.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

ParsedLine parse_record_line(const std::string& line) {
  ParsedLine out;
  if (line.size() + 1 > kMaxRecordLineBytes) return out;
  try {
    const json j = json::parse(line);
    if (!j.is_object()) return out;
    const int schema = get_int<int>(j, "schema");
    if (schema != kSchemaVersion) {
      out.kind = LineKind::OtherSchema;
      return out;
    }
    TuningRecord r;
    r.schema = schema;
    r.key = get_string(j, "key");
    // A hash that disagrees with the key means the line was damaged or edited by hand.
    if (get_string(j, "hash") != key_hash(r.key)) return out;
    r.best = config_from_json(member(j, "best"));
    r.best_ms = get_time(j, "best_ms");
    r.default_ms = get_optional_double(j, "default_ms");
    const json& top = member(j, "top");
    if (!top.is_array()) throw std::runtime_error("top is not an array");
    for (const json& t : top) {
      if (!t.is_array() || t.size() != 2 || !t[1].is_number()) throw std::runtime_error("top entry is not [config, ms]");
      r.top.push_back({config_from_json(t[0]), t[1].get<double>()});
    }
    r.avg_over_best = get_optional_double(j, "avg_over_best");
    r.explored = get_int<std::int64_t>(j, "explored");
    r.space_size = get_int<std::int64_t>(j, "space_size");
    r.invalid = get_int<std::int64_t>(j, "invalid");
    r.searcher = get_string(j, "searcher");
    r.seed = get_int<std::uint64_t>(j, "seed");
    r.mode = get_string(j, "mode");
    const json& p = member(j, "protocol");
    if (!p.is_object()) throw std::runtime_error("protocol is not an object");
    r.protocol.warmup = get_int<int>(p, "warmup");
    r.protocol.min_samples = get_int<int>(p, "min_samples");
    r.protocol.min_ms = get_time(p, "min_ms");
    r.source = get_string(j, "source");
    r.gpu_uuid = get_string(j, "gpu_uuid");
    r.host = get_string(j, "host");
    r.tool = get_string(j, "tool");
    r.time = get_string(j, "time");
    out.kind = LineKind::Record;
    out.record = std::move(r);
  } catch (const std::exception&) {
    out = ParsedLine{}; // any parse or type problem: the line is malformed
  }
  return out;
}

TuningRecord record_from_phase(const std::string& key, const TuningSpace& space, const SearchPhase& phase,
                               std::uint64_t user_seed, const std::string& mode, std::optional<std::size_t> default_index) {
  FROST_EXPECTS(phase.best().has_value(), "a tuning record needs at least one valid measured configuration");
  const auto& configs = phase.configs();
  TuningRecord r;
  r.key = key;
  r.best = space.named(configs[*phase.best()]);
  r.best_ms = *phase.best_ms();
  for (const Evaluation& e : phase.history())
    if (default_index && e.index == *default_index) r.default_ms = e.ms;
  for (const Evaluation& e : phase.top(kRecordTop)) r.top.push_back({space.named(configs[e.index]), *e.ms});
  r.avg_over_best = phase.avg_over_best();
  r.explored = static_cast<std::int64_t>(phase.explored());
  r.space_size = static_cast<std::int64_t>(configs.size());
  r.invalid = static_cast<std::int64_t>(phase.invalid());
  r.searcher = to_string(phase.searcher());
  r.seed = user_seed;
  r.mode = mode;
  return r;
}

} // namespace frost::tuning
