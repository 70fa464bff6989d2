// The persistent answer cache (docs/fft_advisor.md#answer-cache): a JSON-lines file that many processes
// append to at once. Every access holds a flock on the file (shared to read, exclusive to
// write), so a reader never sees half a line; compaction and clearing replace or remove the
// file under the exclusive lock, and open_locked() makes late writers follow the path to the
// new file instead of appending to the old, unlinked one.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "frost/core/atomic_file.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/core/version.hpp"
#include "frost/fft/advisor_cache.hpp"
#include "frost/fft/file_lock.hpp"

namespace frost::fft {

namespace fs = std::filesystem;

using detail::first_time;
using detail::hex64;

namespace {

constexpr const char* kFileName = "fft-sizes.jsonl";
constexpr std::size_t kMaxLineBytes = 4096; // newline included (docs/fft_advisor.md#records-and-file-discipline)
/// Locks are held for one append or one read; waiting longer means something is stuck, and a
/// cache problem must only cost a warning.
constexpr double kLockWaitS = 30;

std::string errno_text(int e) { return std::strerror(e); }

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
  const std::string ta = detail::time_order(a.record.time_iso8601), tb = detail::time_order(b.record.time_iso8601);
  if (ta != tb) return ta > tb;
  return a.position > b.position;
}

/// Calls `f(line, number)` for every line of `text` that is not blank, without a trailing CR;
/// `number` is the 1-based line number in the text.
template <class F>
void for_each_line(const std::string& text, F f) {
  std::size_t begin = 0, number = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    f(line, number);
  }
}

/// Splits `text` into lines and parses those that pass `wanted` (all when null). Blank lines
/// are ignored; lines that do not parse are counted.
template <class Wanted>
std::vector<Entry> parse_lines(const std::string& text, Wanted wanted, int& malformed) {
  std::vector<Entry> out;
  std::size_t position = 0; // among the lines that are not blank
  for_each_line(text, [&](const std::string& line, std::size_t) {
    ++position;
    if (!wanted(line)) return;
    if (auto r = record_from_json(line)) out.push_back({std::move(*r), position});
    else ++malformed;
  });
  return out;
}

void warn_malformed(const std::string& path, int malformed) {
  if (malformed > 0 && first_time("malformed:" + path))
    log_warning("fft size cache " + path + ": skipped " + std::to_string(malformed) +
                " malformed line" + (malformed == 1 ? "" : "s"));
}

} // namespace

AdvisorCache::AdvisorCache(std::string dir) : dir_(dir.empty() ? default_cache_dir() : std::move(dir)) {
  read_only_ = !detail::directory_writable(dir_, kFileName);
  if (read_only_ && first_time("read-only:" + dir_))
    log_warning("fft size cache directory " + dir_ + " is not writable; using the cache read-only");
}

std::string AdvisorCache::file() const { return dir_ + "/" + kFileName; }

namespace {

/// The whole cache file, read under a shared lock. A missing file is an empty cache; other
/// problems give one warning and an empty cache.
std::string read_cache_text(const std::string& path) {
  std::string text;
  detail::UniqueFd fd = detail::open_locked(path, O_RDONLY, LOCK_SH, kLockWaitS);
  if (!fd.valid()) {
    // ENOTDIR: the directory path runs through a regular file (a read-only cache, already
    // reported); like a missing file, that is just an empty cache.
    if (errno != ENOENT && errno != ENOTDIR && first_time("read:" + path))
      log_warning("cannot read fft size cache " + path + " (" + errno_text(errno) + "); ignoring it");
    return text;
  }
  if (!detail::read_all(fd.get(), text) && first_time("read:" + path)) {
    log_warning("cannot read fft size cache " + path + " (" + errno_text(errno) + "); ignoring it");
    text.clear();
  }
  return text;
}

} // namespace

std::optional<CacheRecord> AdvisorCache::lookup(const std::string& key, std::size_t mem_limit) const {
  // Only lines carrying the key's hash are parsed, so a lookup stays fast in a large file.
  const std::string hash = hex64(cache_key_hash(key));
  int malformed = 0;
  const std::vector<Entry> entries = parse_lines(
      read_cache_text(file()), [&](const std::string& line) { return line.find(hash) != std::string::npos; },
      malformed);
  warn_malformed(file(), malformed);
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
  std::vector<Entry> entries = parse_lines(read_cache_text(file()), [](const std::string&) { return true; }, malformed);
  warn_malformed(file(), malformed);
  std::vector<CacheRecord> out;
  out.reserve(entries.size());
  for (Entry& e : entries) out.push_back(std::move(e.record));
  return out;
}

bool AdvisorCache::store(const CacheRecord& record) {
  if (read_only_) return false;
  CacheRecord r = record;
  if (r.host.empty()) r.host = frost::host_name();
  if (r.time_iso8601.empty()) r.time_iso8601 = detail::iso8601_now();
  if (r.tool_version.empty()) r.tool_version = version_string();
  return detail::append_cache_line(dir_, file(), r.key, record_to_json(r) + "\n", kMaxLineBytes, kLockWaitS,
                                   {"fft size cache", "answer", ""}, read_only_);
}

void AdvisorCache::clear() {
  if (read_only_) throw_input_error(dir_, "the fft size cache directory is read-only");
  detail::UniqueFd fd = detail::open_locked(file(), O_RDONLY, LOCK_EX, kLockWaitS);
  if (!fd.valid()) {
    if (errno == ENOENT) return;
    throw_input_error(file(), "cannot lock the cache file (" + errno_text(errno) + ")");
  }
  // Unlinked under the lock: writers waiting for it notice and create a fresh file.
  if (::unlink(file().c_str()) != 0 && errno != ENOENT)
    throw_input_error(file(), "cannot remove the cache file (" + errno_text(errno) + ")");
}

void AdvisorCache::compact() {
  if (read_only_) throw_input_error(dir_, "the fft size cache directory is read-only");
  detail::UniqueFd fd = detail::open_locked(file(), O_RDONLY, LOCK_EX, kLockWaitS);
  if (!fd.valid()) {
    if (errno == ENOENT) return;
    throw_input_error(file(), "cannot lock the cache file (" + errno_text(errno) + ")");
  }
  std::string text;
  if (!detail::read_all(fd.get(), text)) throw_input_error(file(), "cannot read (" + errno_text(errno) + ")");
  int malformed = 0;
  const std::vector<Entry> entries = parse_lines(text, [](const std::string&) { return true; }, malformed);
  std::map<std::string, std::size_t> best; // key -> index into entries
  for (std::size_t i = 0; i < entries.size(); ++i) {
    auto [it, inserted] = best.emplace(entries[i].record.key, i);
    if (!inserted && preferred(entries[i], entries[it->second])) it->second = i;
  }
  std::vector<std::size_t> keep;
  for (const auto& kv : best) keep.push_back(kv.second);
  std::sort(keep.begin(), keep.end()); // file order, so "later is newer" still holds on re-reading
  std::string out;
  for (std::size_t i : keep) out += record_to_json(entries[i].record) + "\n";
  // Temporary file in the same directory, renamed over the cache while we hold its lock.
  AtomicFile tmp(file());
  tmp.write(out);
  tmp.commit();
  if (malformed > 0)
    log_info("fft size cache " + file() + ": compaction dropped " + std::to_string(malformed) + " malformed line" +
             (malformed == 1 ? "" : "s"));
}

void AdvisorCache::export_to(const std::string& path) const {
  std::string out;
  for (const CacheRecord& r : records()) out += record_to_json(r) + "\n";
  write_text_file_atomic(path, out);
}

void AdvisorCache::import_from(const std::string& path) {
  if (read_only_) throw_input_error(dir_, "the fft size cache directory is read-only");
  // Unlike the cache itself (appended to by many processes, so a torn line is skipped), a file to
  // import is one whole export: any line that is not a record means it is not one, and nothing
  // of it is imported.
  std::vector<Entry> incoming;
  for_each_line(read_text_file(path), [&](const std::string& line, std::size_t number) {
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
  std::error_code ec;
  fs::create_directories(dir_, ec);
  const int e = ec ? ec.value() : detail::append_locked(file(), lines, kLockWaitS);
  if (e != 0) throw_input_error(file(), "cannot append imported records (" + errno_text(e) + ")");
}

} // namespace frost::fft
