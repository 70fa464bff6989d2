#include "frost/core/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "frost/core/env.hpp"
#include "frost/core/error.hpp"

namespace frost {

namespace {
// Fixed registry of temporaries so a signal handler can unlink them without allocating.
constexpr int kSlots = 64;
constexpr std::size_t kPathMax = 4096;
std::atomic<bool> g_used[kSlots];
char g_paths[kSlots][kPathMax];

int register_tmp(const std::string& tmp) {
  if (tmp.size() >= kPathMax) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (g_used[i].compare_exchange_strong(expected, true)) {
      std::memcpy(g_paths[i], tmp.c_str(), tmp.size() + 1);
      return i;
    }
  }
  return -1; // registry full: the temporary is still removed on exceptions, just not on signals
}
void unregister_tmp(int slot) {
  if (slot >= 0) g_used[slot].store(false);
}
std::string errno_text() { return std::strerror(errno); }

// The set AtomicFile::commit() hands its file to, per thread (OutputSet).
thread_local OutputSet* t_current_set = nullptr;
// OutputSets renaming right now, and a SIGINT/SIGTERM that arrived meanwhile.
std::atomic<int> g_committing{0};
std::atomic<int> g_deferred_signal{0};

// The folder holding `path` ("." for a bare name).
std::string folder_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}

// The rename itself reaches the disk only with its folder's metadata.
void sync_folder_of(const std::string& path) {
  const int fd = ::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return; // best effort: the file itself is on the disk
  static_cast<void>(::fsync(fd));
  ::close(fd);
}
} // namespace

bool outputs_synced() { return env_flag("FROST_FSYNC"); }

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  tmp_ = path_ + ".frost-tmp-" + std::to_string(::getpid());
  slot_ = register_tmp(tmp_);
  file_ = std::fopen(tmp_.c_str(), "wb+");
  if (!file_) {
    unregister_tmp(slot_);
    throw_input_error(path_, "cannot create output file (" + errno_text() + ")");
  }
}

AtomicFile::~AtomicFile() {
  if (file_) {
    std::fclose(file_);
    std::remove(tmp_.c_str());
  }
  unregister_tmp(slot_);
}

void AtomicFile::write(const void* data, std::size_t bytes) {
  if (bytes && std::fwrite(data, 1, bytes, file_) != bytes)
    throw_input_error(path_, "write failed (" + errno_text() + ")");
}

void AtomicFile::write_at(long offset, const void* data, std::size_t bytes) {
  const long here = std::ftell(file_);
  if (std::fseek(file_, offset, SEEK_SET) != 0) throw_input_error(path_, "seek failed");
  write(data, bytes);
  if (std::fseek(file_, here, SEEK_SET) != 0) throw_input_error(path_, "seek failed");
}

void AtomicFile::commit() {
  FROST_EXPECTS(file_ != nullptr, "AtomicFile committed twice");
  const bool sync = outputs_synced();
  const bool ok = std::fflush(file_) == 0 && (!sync || ::fsync(::fileno(file_)) == 0);
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok || !closed) {
    std::remove(tmp_.c_str());
    throw_input_error(path_, "could not finish writing (" + errno_text() + ")");
  }
  if (t_current_set != nullptr) {
    t_current_set->adopt({tmp_, path_, slot_});
    slot_ = -1;
    return;
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const std::string why = errno_text();
    std::remove(tmp_.c_str());
    throw_input_error(path_, "could not rename the temporary output into place (" + why + ")");
  }
  if (sync) sync_folder_of(path_);
  unregister_tmp(slot_);
  slot_ = -1;
  remove_stale_temporaries(path_);
}

OutputSet::OutputSet() : previous_(t_current_set) { t_current_set = this; }

OutputSet::~OutputSet() {
  if (t_current_set == this) t_current_set = previous_;
  if (committed_) return;
  for (const Pending& p : pending_) {
    std::remove(p.tmp.c_str());
    unregister_tmp(p.slot);
  }
}

void OutputSet::adopt(Pending p) {
  std::lock_guard<std::mutex> lock(mutex_);
  FROST_EXPECTS(!committed_, "file handed to an OutputSet after its commit");
  pending_.push_back(std::move(p));
}

std::vector<std::string> OutputSet::paths() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out;
  for (const Pending& p : pending_) out.push_back(p.path);
  return out;
}

void OutputSet::commit() {
  std::lock_guard<std::mutex> lock(mutex_);
  FROST_EXPECTS(!committed_, "OutputSet committed twice");
  if (t_current_set == this) t_current_set = previous_;
  committed_ = true;
  g_committing.fetch_add(1);
  std::string failed, why;
  std::size_t done = 0;
  // Old outputs go first, so that no kill can leave an old file beside a new one.
  for (const Pending& p : pending_)
    if (::unlink(p.path.c_str()) != 0 && errno != ENOENT && failed.empty()) {
      failed = p.path;
      why = "could not remove the previous output (" + errno_text() + ")";
    }
  for (; failed.empty() && done < pending_.size(); ++done)
    if (std::rename(pending_[done].tmp.c_str(), pending_[done].path.c_str()) != 0) {
      failed = pending_[done].path;
      why = "could not rename the temporary output into place (" + errno_text() + ")";
    }
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (i >= done || !failed.empty()) std::remove(pending_[i].tmp.c_str());
    unregister_tmp(pending_[i].slot);
  }
  g_committing.fetch_sub(1);
  if (const int sig = g_deferred_signal.exchange(0); sig != 0 && g_committing.load() == 0) std::raise(sig);
  if (!failed.empty()) throw_input_error(failed, why);
  if (outputs_synced())
    for (const Pending& p : pending_) sync_folder_of(p.path);
  for (const Pending& p : pending_) remove_stale_temporaries(p.path);
}

OutputSet::Use::Use(OutputSet& set) : previous_(t_current_set) { t_current_set = &set; }
OutputSet::Use::~Use() { t_current_set = previous_; }

bool defer_terminating_signal(int sig) noexcept {
  if (g_committing.load() == 0) return false;
  g_deferred_signal.store(sig);
  return true;
}

void remove_stale_temporaries(const std::string& path) noexcept {
  const std::size_t slash = path.rfind('/');
  const std::string dir = folder_of(path);
  const std::string prefix = (slash == std::string::npos ? path : path.substr(slash + 1)) + ".frost-tmp-";
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  while (const dirent* e = ::readdir(d)) {
    const char* name = e->d_name;
    if (std::strncmp(name, prefix.c_str(), prefix.size()) != 0) continue;
    const char* digits = name + prefix.size();
    char* end = nullptr;
    const long pid = std::strtol(digits, &end, 10);
    if (end == digits || *end != '\0' || pid <= 0 || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue; // alive, or not ours to judge
    ::unlink((dir + "/" + name).c_str());
  }
  ::closedir(d);
}

void remove_pending_temporaries() noexcept {
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load()) ::unlink(g_paths[i]);
}

void write_text_file_atomic(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  f.write(text);
  f.commit();
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_input_error(path, "cannot open for reading (" + errno_text() + ")");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace frost
