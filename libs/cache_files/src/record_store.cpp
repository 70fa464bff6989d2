#include "frost/cache/record_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "frost/cache/cache_dir.hpp"
#include "frost/cache/file_lock.hpp"
#include "frost/cache/warn_once.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"

namespace frost::cache {
namespace {

/// Locks are held for one append or one read; waiting longer means something is stuck, and a
/// cache problem must only cost a warning.
constexpr double kLockWaitS = 30;

std::string errno_text(int e) { return std::strerror(e); }

std::string plural_lines(int n) { return std::to_string(n) + " malformed line" + (n == 1 ? "" : "s"); }

} // namespace

void for_each_line(const std::string& text, const std::function<void(const std::string&, std::size_t)>& f) {
  std::size_t begin = 0, number = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) f(line, number);
  }
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  for_each_line(text, [&](const std::string& line, std::size_t) { out.push_back(line); });
  return out;
}

std::vector<std::string> read_record_lines(const std::string& path, const StoreNames& names, bool must_exist) {
  std::string text;
  UniqueFd fd = open_locked(path, O_RDONLY, LOCK_SH, kLockWaitS);
  if (!fd.valid()) {
    // A missing file, or a path through a regular file (a read-only cache, already reported),
    // is an empty store.
    if ((must_exist || (errno != ENOENT && errno != ENOTDIR)) && first_time(names.topic + "read:" + path))
      log_warning("cannot read " + names.what + " " + path + " (" + errno_text(errno) + "); ignoring it");
    return {};
  }
  if (!read_all(fd.get(), text)) {
    if (first_time(names.topic + "read:" + path))
      log_warning("cannot read " + names.what + " " + path + " (" + errno_text(errno) + "); ignoring it");
    return {};
  }
  return split_lines(text);
}

RecordStore::RecordStore(std::string dir, std::string file_name, StoreNames names, std::size_t max_line_bytes)
    : dir_(std::move(dir)), file_name_(std::move(file_name)), names_(std::move(names)),
      max_line_bytes_(max_line_bytes) {
  read_only_ = !directory_writable(dir_, file_name_);
  if (read_only_ && first_time(names_.topic + "read-only:" + dir_))
    log_warning(names_.what + " directory " + dir_ + " is not writable; using the cache read-only");
}

std::vector<std::string> RecordStore::read_lines() const { return read_record_lines(path(), names_); }

void RecordStore::warn_malformed(const std::string& file, int count) const {
  if (count > 0 && first_time(names_.topic + "malformed:" + file))
    log_warning(names_.what + " " + file + ": skipped " + plural_lines(count));
}

bool RecordStore::append(const std::string& key, const std::string& line) {
  if (read_only_) return false;
  if (line.size() > max_line_bytes_) {
    log_warning(names_.what + ": record for '" + key.substr(0, 80) + "...' is " + std::to_string(line.size()) +
                " bytes (limit " + std::to_string(max_line_bytes_) + "); not stored");
    return false;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  const int e = ec ? ec.value() : append_locked(path(), line, kLockWaitS);
  if (e == 0) return true;
  if (is_permission_problem(e)) {
    read_only_ = true;
    if (first_time(names_.topic + "read-only:" + dir_))
      log_warning(names_.what + " directory " + dir_ + " is not writable (" + errno_text(e) +
                  "); using the cache read-only");
  } else if (first_time(names_.topic + "write:" + dir_)) {
    log_warning("cannot write " + names_.what + " " + path() + " (" + errno_text(e) + "); " + names_.lost +
                " not stored");
  }
  return false;
}

void RecordStore::append_all(const std::string& lines) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  const int e = ec ? ec.value() : append_locked(path(), lines, kLockWaitS);
  if (e != 0) throw_input_error(path(), "cannot append imported records (" + errno_text(e) + ")");
}

void RecordStore::rewrite(const std::string& action,
                          const std::function<Rewrite(const std::vector<std::string>&)>& choose) {
  if (read_only_) throw_input_error(dir_, "the " + names_.what + " directory is read-only");
  UniqueFd fd = open_locked(path(), O_RDONLY, LOCK_EX, kLockWaitS);
  if (!fd.valid()) {
    if (errno == ENOENT) return;
    throw_input_error(path(), "cannot lock the " + names_.what + " (" + errno_text(errno) + ")");
  }
  std::string text;
  if (!read_all(fd.get(), text)) throw_input_error(path(), "cannot read (" + errno_text(errno) + ")");
  const Rewrite out = choose(split_lines(text));
  // Temporary file in the same directory, renamed over the store while we hold its lock.
  AtomicFile tmp(path());
  tmp.write(out.text);
  tmp.commit();
  if (out.malformed > 0)
    log_info(names_.what + " " + path() + ": " + action + " dropped " + plural_lines(out.malformed));
}

void RecordStore::clear() {
  if (read_only_) throw_input_error(dir_, "the " + names_.what + " directory is read-only");
  UniqueFd fd = open_locked(path(), O_RDONLY, LOCK_EX, kLockWaitS);
  if (!fd.valid()) {
    if (errno == ENOENT) return;
    throw_input_error(path(), "cannot lock the " + names_.what + " (" + errno_text(errno) + ")");
  }
  // Unlinked under the lock: writers waiting for it notice and create a fresh file.
  if (::unlink(path().c_str()) != 0 && errno != ENOENT)
    throw_input_error(path(), "cannot remove the " + names_.what + " (" + errno_text(errno) + ")");
}

} // namespace frost::cache
