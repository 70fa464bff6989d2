#pragma once
/// @file record_store.hpp
/// @brief The JSON-lines record file that the FFT size cache (docs/fft_advisor.md#answer-cache) and
/// the kernel tuning cache (docs/tune.md#tuning-cache) keep: one record per line, appended by any
/// number of processes at once. Every access holds a flock on the file (shared to read,
/// exclusive to append, rewrite or clear), appends are single writes of whole lines, and a
/// rewrite renames a new file over the old one under the lock, which open_locked() makes late
/// writers follow. What a line means is the owner's business; the store only moves lines.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace frost::cache {

/// How a store names itself in its messages: `what` ("tuning cache"), the thing a failed write
/// loses ("record"), and the prefix of its first_time() topics ("tuning-").
struct StoreNames {
  std::string what, lost, topic;
};

/// The lines of `text` without their line ends ('\n', "\r\n"); blank lines dropped.
std::vector<std::string> split_lines(const std::string& text);
/// Calls `f(line, number)` for the same lines as split_lines(); `number` is the 1-based line number
/// in the text, for messages.
void for_each_line(const std::string& text, const std::function<void(const std::string&, std::size_t)>& f);

/// The non-blank lines of the record file `path`, read under a shared lock. A missing file (or a
/// path through a regular file) has none, unless `must_exist`; any other problem gives one
/// warning per file and no lines.
std::vector<std::string> read_record_lines(const std::string& path, const StoreNames& names, bool must_exist = false);

/// The text a rewrite writes and how many malformed lines it dropped.
struct Rewrite {
  std::string text;
  int malformed = 0;
};

class RecordStore {
public:
  /// The file `file_name` in `dir`. A directory that cannot be written makes the store
  /// read-only (one warning). Lines longer than `max_line_bytes` (newline included) are refused.
  RecordStore(std::string dir, std::string file_name, StoreNames names, std::size_t max_line_bytes);

  const std::string& dir() const { return dir_; }
  std::string path() const { return dir_ + "/" + file_name_; }
  bool read_only() const { return read_only_; }
  std::size_t max_line_bytes() const { return max_line_bytes_; }
  const StoreNames& names() const { return names_; }

  /// read_record_lines() of the file.
  std::vector<std::string> read_lines() const;
  /// One warning per file: `count` malformed lines were skipped while reading `path`.
  void warn_malformed(const std::string& path, int count) const;

  /// Appends one record line (ending in '\n'; `key` names it in a warning) with one write under
  /// the exclusive lock, creating the directory. False (with one warning per directory) when
  /// read-only, too long or not writable; a directory that refuses writes makes the store
  /// read-only.
  bool append(const std::string& key, const std::string& line);
  /// Appends `lines` (each ending in '\n') in one write; frost::Error(Input) when that fails.
  void append_all(const std::string& lines);

  /// Rewrites the file under the exclusive lock (temporary file + rename) with what `choose`
  /// makes of its non-blank lines, logging the malformed lines it dropped as the `action`
  /// ("compaction"). Nothing to do when the file is missing. frost::Error(Input) when read-only
  /// or the file cannot be locked, read or replaced.
  void rewrite(const std::string& action, const std::function<Rewrite(const std::vector<std::string>&)>& choose);
  /// Removes the file under the exclusive lock (writers waiting for it create a fresh one).
  /// frost::Error(Input) when read-only or the file cannot be locked or removed.
  void clear();

private:
  std::string dir_, file_name_;
  StoreNames names_;
  std::size_t max_line_bytes_;
  bool read_only_ = false;
};

} // namespace frost::cache
