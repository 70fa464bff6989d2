// The persistent answer cache (docs/fft_advisor.md#answer-cache): records of a cache::RecordStore,
// which many processes read and append to at once; this file chooses among them.
#include <algorithm>
#include <map>
#include <set>

#include "frost/cache/text_hash.hpp"
#include "frost/cache/timestamps.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/core/version.hpp"
#include "frost/fft/advisor_cache.hpp"

namespace frost::fft {

namespace {

constexpr const char* kFileName = "fft-sizes.jsonl";
constexpr std::size_t kMaxLineBytes = 4096; // newline included (docs/fft_advisor.md#records-and-file-discipline)

/// One parsed line: the record and its position (later lines are newer among equal times).
struct Entry {
  CacheRecord record;
  std::size_t position;
};

/// Preference among records of one key (docs/fft_advisor.md#records-and-file-discipline): measured
/// first, then the newest (then the later line, for equal times).
bool preferred(const Entry& a, const Entry& b) {
  const bool ma = a.record.source == "measured", mb = b.record.source == "measured";
  if (ma != mb) return ma;
  const std::string ta = cache::time_order(a.record.time_iso8601), tb = cache::time_order(b.record.time_iso8601);
  if (ta != tb) return ta > tb;
  return a.position > b.position;
}

/// Parses the `lines` that pass `wanted`; lines that do not parse are counted.
template <class Wanted>
std::vector<Entry> parse_lines(const std::vector<std::string>& lines, Wanted wanted, int& malformed) {
  std::vector<Entry> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!wanted(lines[i])) continue;
    if (auto r = record_from_json(lines[i])) out.push_back({std::move(*r), i + 1});
    else ++malformed;
  }
  return out;
}

const auto every_line = [](const std::string&) { return true; };

} // namespace

AdvisorCache::AdvisorCache(std::string dir)
    : store_(dir.empty() ? default_cache_dir() : std::move(dir), kFileName, {"fft size cache", "answer", ""},
             kMaxLineBytes) {}

std::optional<CacheRecord> AdvisorCache::lookup(const std::string& key, std::size_t mem_limit) const {
  // Only lines carrying the key's hash are parsed, so a lookup stays fast in a large file.
  const std::string hash = cache::hex64(cache_key_hash(key));
  int malformed = 0;
  const std::vector<Entry> entries = parse_lines(
      store_.read_lines(), [&](const std::string& line) { return line.find(hash) != std::string::npos; }, malformed);
  store_.warn_malformed(file(), malformed);
  const Entry* best = nullptr;
  for (const Entry& e : entries) {
    if (e.record.key != key) continue;
    if (mem_limit != 0 && e.record.required_bytes > mem_limit) continue; // needs more than we have
    if (best == nullptr || preferred(e, *best)) best = &e;
  }
  if (best == nullptr) return std::nullopt;
  return best->record;
}

std::vector<CacheRecord> AdvisorCache::records() const {
  int malformed = 0;
  std::vector<Entry> entries = parse_lines(store_.read_lines(), every_line, malformed);
  store_.warn_malformed(file(), malformed);
  std::vector<CacheRecord> out;
  out.reserve(entries.size());
  for (Entry& e : entries) out.push_back(std::move(e.record));
  return out;
}

bool AdvisorCache::store(const CacheRecord& record) {
  if (read_only()) return false;
  CacheRecord r = record;
  if (r.host.empty()) r.host = frost::host_name();
  if (r.time_iso8601.empty()) r.time_iso8601 = cache::iso8601_now();
  if (r.tool_version.empty()) r.tool_version = version_string();
  return store_.append(r.key, record_to_json(r) + "\n");
}

void AdvisorCache::clear() { store_.clear(); }

void AdvisorCache::compact() {
  store_.rewrite("compaction", [](const std::vector<std::string>& lines) {
    cache::Rewrite out;
    const std::vector<Entry> entries = parse_lines(lines, every_line, out.malformed);
    std::map<std::string, std::size_t> best; // key -> index into entries
    for (std::size_t i = 0; i < entries.size(); ++i) {
      auto [it, inserted] = best.emplace(entries[i].record.key, i);
      if (!inserted && preferred(entries[i], entries[it->second])) it->second = i;
    }
    std::vector<std::size_t> keep;
    for (const auto& kv : best) keep.push_back(kv.second);
    std::sort(keep.begin(), keep.end()); // file order, so "later is newer" still holds on re-reading
    for (std::size_t i : keep) out.text += record_to_json(entries[i].record) + "\n";
    return out;
  });
}

void AdvisorCache::export_to(const std::string& path) const {
  std::string out;
  for (const CacheRecord& r : records()) out += record_to_json(r) + "\n";
  write_text_file_atomic(path, out);
}

void AdvisorCache::import_from(const std::string& path) {
  if (read_only()) throw_input_error(dir(), "the fft size cache directory is read-only");
  // Unlike the cache itself (appended to by many processes, so a torn line is skipped), a file to
  // import is one whole export: any line that is not a record means it is not one, and nothing
  // of it is imported.
  std::vector<Entry> incoming;
  cache::for_each_line(read_text_file(path), [&](const std::string& line, std::size_t number) {
    auto r = record_from_json(line);
    if (!r) {
      const std::string shown = line.size() > 60 ? line.substr(0, 60) + "..." : line;
      throw_input_error(path, "not an fft size cache export: line " + std::to_string(number) +
                                  " is not a cache record ('" + shown + "'); nothing was imported");
    }
    incoming.push_back({std::move(*r), number});
  });
  // Records already present (same canonical text) are not appended again, so importing the
  // same file twice leaves the cache as it was.
  std::set<std::string> present;
  for (const CacheRecord& r : records()) present.insert(record_to_json(r));
  std::string lines;
  for (const Entry& e : incoming) {
    std::string line = record_to_json(e.record);
    if (line.size() + 1 > kMaxLineBytes || !present.insert(line).second) continue;
    lines += line + "\n";
  }
  if (lines.empty()) return;
  store_.append_all(lines);
}

} // namespace frost::fft
