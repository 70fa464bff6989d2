#pragma once
/// @file atomic_file.hpp
/// @brief Outputs appear whole or not at all: write to a temporary name, then rename.
#include <cstdio>
#include <string>

namespace frost {

/// Writes go to `<path>.frost-tmp-<pid>` in the same directory; commit() flushes and renames it
/// to `path` (and, with outputs_synced(), fsyncs the file before and its folder after). If the object dies uncommitted (exception) the temporary is removed;
/// if the process is killed by SIGINT/SIGTERM the program base removes it (see
/// remove_pending_temporaries). A SIGKILL leaves its temporary behind: the next commit of the
/// same path removes temporaries of it whose process no longer exists on this machine.
/// Throws frost::Error(Input) naming the path on any failure.
class AtomicFile {
public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::FILE* handle() { return file_; }
  void write(const void* data, std::size_t bytes);
  void write(const std::string& text) { write(text.data(), text.size()); }
  /// Position-independent write (for headers patched after the data).
  void write_at(long offset, const void* data, std::size_t bytes);
  void commit();
  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return tmp_; }

private:
  std::string path_, tmp_;
  std::FILE* file_ = nullptr;
  int slot_ = -1;
};

/// Whether commit() forces outputs to the disk (fsync): `$FROST_FSYNC` = 1/yes/true/on (read at
/// each commit). Off by default, like the peer programs: the rename alone keeps an output whole when a
/// run is killed; the sync only matters for a machine crash, and is slow for a large
/// micrograph (slower on parallel filesystems).
bool outputs_synced();

/// Remove every temporary of an uncommitted AtomicFile; async-signal-safe (signal handlers).
void remove_pending_temporaries() noexcept;

/// Removes `<path>.frost-tmp-<pid>` files whose process is gone (kill(pid, 0) says ESRCH). On a
/// filesystem shared between machines a pid may be another machine's: such a writer of the
/// same output (two jobs writing one file) then fails with a clear error at its rename.
void remove_stale_temporaries(const std::string& path) noexcept;

/// Write a whole text file atomically.
void write_text_file_atomic(const std::string& path, const std::string& text);
/// Read a whole file; throws frost::Error(Input) naming the path.
std::string read_text_file(const std::string& path);

} // namespace frost
