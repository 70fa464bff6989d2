// The persistent tuning cache (docs/tune.md#tuning-cache): records.jsonl is a cache::RecordStore, the
// store the FFT advisor's size cache keeps too (its file lock and concurrency rules); the shipped
// databases are read with the same lock. This file chooses among the records.
#include "frost/tuning/cache.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "frost/cache/cache_dir.hpp"
#include "frost/cache/timestamps.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/version.hpp"
#include "frost/tuning/problem_key.hpp"

namespace frost::tuning {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFileName = "records.jsonl";
const cache::StoreNames& store_names() {
  static const cache::StoreNames names{"tuning cache", "record", "tuning-"};
  return names;
}

/// A schema-1 line whose key is a valid tuning key.
struct Parsed {
  LineKind kind = LineKind::Malformed;
  std::optional<TuningRecord> record;
  std::optional<TuningKey> key;
};

Parsed parse_line(const std::string& line) {
  ParsedLine p = parse_record_line(line);
  Parsed out;
  out.kind = p.kind;
  if (p.kind != LineKind::Record) return out;
  out.key = TuningKey::parse(p.record->key);
  if (!out.key) {
    out.kind = LineKind::Malformed;
    return out;
  }
  out.record = std::move(p.record);
  return out;
}

/// True when record a is newer than b (time order, then position).
bool newer(const std::string& time_a, std::size_t pos_a, const std::string& time_b, std::size_t pos_b) {
  const std::string ta = cache::time_order(time_a), tb = cache::time_order(time_b);
  if (ta != tb) return ta > tb;
  return pos_a > pos_b;
}

} // namespace

std::string tuning_cache_dir(const std::string& explicit_dir) {
  if (!explicit_dir.empty()) return explicit_dir;
  if (const char* d = std::getenv("FROST_TUNING_CACHE"); d != nullptr && *d != '\0') return d;
  return cache::default_cache_dir() + "/tuning";
}

std::string shipped_database_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return {};
  return (exe.parent_path().parent_path() / "share" / "frost" / "tuning").string();
}

const char* to_string(ConfigSource source) {
  switch (source) {
  case ConfigSource::Exact: return "exact";
  case ConfigSource::Stale: return "stale";
  case ConfigSource::Similar: return "similar";
  case ConfigSource::ArchDefault: return "arch-default";
  case ConfigSource::Default: return "default";
  case ConfigSource::TunedNow: return "tuned-now";
  }
  return "?";
}

std::optional<std::size_t> effective_record(const std::vector<const TuningRecord*>& records, std::int64_t budget) {
  const bool any_covers =
      std::any_of(records.begin(), records.end(), [&](const TuningRecord* r) { return r->explored >= budget; });
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const TuningRecord& r = *records[i];
    if (any_covers && r.explored < budget) continue;
    if (!best) {
      best = i;
      continue;
    }
    const TuningRecord& b = *records[*best];
    if (r.best_ms < b.best_ms || (r.best_ms == b.best_ms && newer(r.time, i, b.time, *best))) best = i;
  }
  return best;
}

TuningCache::TuningCache(std::string dir, std::vector<std::string> shipped_dirs)
    : store_(dir.empty() ? tuning_cache_dir() : std::move(dir), kFileName, store_names(), kMaxRecordLineBytes),
      shipped_dirs_(std::move(shipped_dirs)) {
  reload();
}

void TuningCache::read_lines(const std::string& path, const std::vector<std::string>& lines, bool shipped) {
  int malformed = 0;
  for (const std::string& line : lines) {
    Parsed p = parse_line(line);
    if (p.kind == LineKind::Malformed) ++malformed;
    if (p.kind == LineKind::OtherSchema && !shipped) ++other_schema_;
    if (p.kind != LineKind::Record) continue;
    stored_.push_back({std::move(*p.record), std::move(*p.key), shipped, stored_.size()});
  }
  store_.warn_malformed(path, malformed);
}

void TuningCache::reload() {
  stored_.clear();
  other_schema_ = 0;
  read_lines(records_file(), store_.read_lines(), false);
  for (const std::string& dir : shipped_dirs_) {
    std::error_code ec;
    std::vector<std::string> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".jsonl") files.push_back(it->path().string());
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) read_lines(f, cache::read_record_lines(f, store_names(), true), true);
  }
}

std::vector<TuningRecord> TuningCache::records() const {
  std::vector<TuningRecord> out;
  for (const Stored& s : stored_)
    if (!s.shipped) out.push_back(s.record);
  return out;
}

std::vector<TuningRecord> TuningCache::shipped_records() const {
  std::vector<TuningRecord> out;
  for (const Stored& s : stored_)
    if (s.shipped) out.push_back(s.record);
  return out;
}

namespace {

/// One key's candidates at one lookup level, and the effective record among them.
struct Group {
  std::vector<const TuningRecord*> records;
  std::vector<std::size_t> stored; ///< indices into the cache's records, parallel to `records`
};

} // namespace

std::optional<CacheHit> TuningCache::lookup(const LookupRequest& req) const {
  const std::string key_text = req.key.str();
  // Compare against the key as it reads back from its text (the device name is normalised).
  const auto me = TuningKey::parse(key_text);
  FROST_EXPECTS(me.has_value(), "tuning key does not read back: " + key_text);
  const auto usable = [&](const Stored& s) { return !req.usable || req.usable(s.record.best); };

  // Effective record of each key among the stored records passing `take`, keyed by key text.
  const auto effective_per_key = [&](auto take) {
    std::map<std::string, Group> groups;
    for (std::size_t i = 0; i < stored_.size(); ++i) {
      if (!take(stored_[i]) || !usable(stored_[i])) continue;
      Group& g = groups[stored_[i].record.key];
      g.records.push_back(&stored_[i].record);
      g.stored.push_back(i);
    }
    std::vector<std::size_t> out;
    for (const auto& [key, g] : groups) out.push_back(g.stored[*effective_record(g.records, req.budget)]);
    return out;
  };
  const auto hit = [&](std::size_t i, ConfigSource source, double ratio) {
    return CacheHit{source, stored_[i].record, stored_[i].shipped, ratio};
  };

  // 1. exact: the user cache first, then the shipped databases.
  for (bool shipped : {false, true}) {
    const auto found =
        effective_per_key([&](const Stored& s) { return s.shipped == shipped && s.record.key == key_text; });
    if (!found.empty()) return hit(found.front(), ConfigSource::Exact, 1);
  }
  const auto same_model_and_kernel = [&](const Stored& s) {
    return same_kernel(s.key.kernel, me->kernel) && same_model(s.key.device, me->device);
  };
  // Among candidate keys of one level: the user cache before shipped, then the newest.
  const auto preferred = [&](std::size_t a, std::size_t b) {
    if (stored_[a].shipped != stored_[b].shipped) return !stored_[a].shipped;
    return newer(stored_[a].record.time, stored_[a].position, stored_[b].record.time, stored_[b].position);
  };

  // 2. stale: the same problem measured with another driver, CUDA, NVRTC or frost version.
  {
    const auto found = effective_per_key([&](const Stored& s) {
      return same_model_and_kernel(s) && s.key.problem == me->problem && !same_software(s.key.software, me->software);
    });
    if (!found.empty())
      return hit(*std::min_element(found.begin(), found.end(), preferred), ConfigSource::Stale, 1);
  }

  // 3. similar: a problem differing only in size fields, nearest (log distance) within 1.5x.
  std::optional<std::size_t> best;
  SizeDistance best_d;
  const double limit = std::log(kMaxSimilarRatio) + 1e-12;
  const auto found = effective_per_key([&](const Stored& s) {
    if (!same_model_and_kernel(s) || s.key.problem == me->problem) return false;
    const auto d = size_distance(s.key.problem, me->problem, req.size_fields);
    return d && d->max_log_ratio <= limit;
  });
  for (std::size_t i : found) {
    const SizeDistance d = *size_distance(stored_[i].key.problem, me->problem, req.size_fields);
    const bool better = !best || d.max_log_ratio < best_d.max_log_ratio ||
                        (d.max_log_ratio == best_d.max_log_ratio &&
                         (d.sum_log_ratio < best_d.sum_log_ratio ||
                          (d.sum_log_ratio == best_d.sum_log_ratio && preferred(i, *best))));
    if (better) {
      best = i;
      best_d = d;
    }
  }
  if (best) return hit(*best, ConfigSource::Similar, best_d.max_ratio());
  return std::nullopt;
}

bool TuningCache::append(const TuningRecord& record) {
  if (read_only()) return false;
  TuningRecord r = record;
  if (r.host.empty()) r.host = frost::host_name();
  if (r.time.empty()) r.time = cache::iso8601_now();
  if (r.tool.empty()) r.tool = "frost " + version_string();
  const std::string line = record_to_json(r) + "\n";
  if (!store_.append(r.key, line)) return false;
  Parsed p = parse_line(line.substr(0, line.size() - 1));
  if (p.kind == LineKind::Record) stored_.push_back({std::move(*p.record), std::move(*p.key), false, stored_.size()});
  return true;
}

void TuningCache::rewrite(const std::string& what, const LineChooser& choose) {
  store_.rewrite(what, [&choose](const std::vector<std::string>& lines) {
    std::vector<std::optional<TuningRecord>> records(lines.size());
    std::vector<bool> keep(lines.size(), false);
    cache::Rewrite out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      Parsed p = parse_line(lines[i]);
      if (p.kind == LineKind::OtherSchema) keep[i] = true; // not ours to judge: kept verbatim
      if (p.kind == LineKind::Malformed) ++out.malformed;
      if (p.kind == LineKind::Record) records[i] = std::move(p.record);
    }
    choose(records, keep);
    // Kept lines stay verbatim (fields this version does not know survive) and in file order
    // (so "later is newer" still holds).
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (keep[i]) out.text += lines[i] + "\n";
    return out;
  });
  reload();
}

void TuningCache::compact(std::int64_t budget) {
  rewrite("compaction", [budget](const std::vector<std::optional<TuningRecord>>& records, std::vector<bool>& keep) {
    std::map<std::string, Group> groups;
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (!records[i]) continue;
      Group& g = groups[records[i]->key];
      g.records.push_back(&*records[i]);
      g.stored.push_back(i);
    }
    for (const auto& [key, g] : groups) keep[g.stored[*effective_record(g.records, budget)]] = true;
  });
}

std::size_t TuningCache::prune_before(const std::string& cutoff) {
  std::size_t removed = 0;
  rewrite("pruning", [&](const std::vector<std::optional<TuningRecord>>& records, std::vector<bool>& keep) {
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (!records[i]) continue;
      // ISO 8601 UTC stamps of one width sort as text; a record without a time is kept.
      keep[i] = records[i]->time.empty() || records[i]->time >= cutoff;
      if (!keep[i]) ++removed;
    }
  });
  return removed;
}

std::size_t TuningCache::export_to(const std::string& path) const {
  std::string out;
  std::size_t n = 0;
  for (const TuningRecord& r : records()) {
    out += record_to_json(r) + "\n";
    ++n;
  }
  AtomicFile file(path);
  file.write(out);
  file.commit();
  return n;
}

TuningCache::ImportCounts TuningCache::import_from(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw_input_error(path, "cannot open the file to import");
  ImportCounts c;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const ParsedLine p = parse_record_line(line);
    if (p.kind == LineKind::Record && append(*p.record)) ++c.imported;
    else if (p.kind == LineKind::OtherSchema) ++c.other_schema;
    else ++c.skipped;
  }
  reload();
  return c;
}

Selection select_configuration(const TuningCache* cache, const LookupRequest& req, const KernelDefaults& defaults) {
  Selection s;
  if (cache != nullptr) {
    if (auto hit = cache->lookup(req)) {
      s.source = hit->source;
      s.config = hit->record.best;
      s.hit = std::move(hit);
      return s;
    }
  }
  const auto usable = [&](const NamedConfig& c) { return !req.usable || req.usable(c); };
  const ArchDefault* arch = nullptr;
  for (const ArchDefault& a : defaults.per_arch) {
    if (a.cc_major != req.key.device.cc_major || a.cc_minor > req.key.device.cc_minor || !usable(a.config)) continue;
    if (arch == nullptr || a.cc_minor > arch->cc_minor) arch = &a;
  }
  if (arch != nullptr) {
    s.source = ConfigSource::ArchDefault;
    s.config = arch->config;
    return s;
  }
  s.source = ConfigSource::Default;
  s.config = defaults.config;
  return s;
}

} // namespace frost::tuning
