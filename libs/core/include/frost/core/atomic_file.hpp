#pragma once
/// @file atomic_file.hpp
/// @brief Outputs appear whole or not at all: write to a temporary name, then rename.
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace frost {

/// Writes go to `<path>.frost-tmp-<pid>` in the same directory; commit() flushes and renames it
/// to `path` (and, with outputs_synced(), fsyncs the file before and its folder after). While an
/// OutputSet is open on the calling thread, commit() only finishes the temporary and hands it to
/// the set, which renames all of its files together. If the object dies uncommitted (exception) the temporary is removed;
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

/// @brief The outputs of one run (or of one movie of a batch) appear together or not at all.
///
/// While a set is open on a thread, every AtomicFile committed on that thread is finished but
/// kept under its temporary name. commit() then removes the old files of the set's paths and
/// renames every temporary into place, with SIGINT/SIGTERM held back until the last rename:
/// an interrupted run leaves the previous outputs or the new ones, never a mix, and a SIGKILL
/// during the renames leaves some new files and the rest missing, which a resumed batch sees as
/// unfinished. A set destroyed uncommitted (an exception) removes its temporaries.
class OutputSet {
public:
  OutputSet();
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  /// Renames every finished file into place; throws frost::Error(Input) naming the file whose
  /// rename failed (the ones before it are in place, the rest removed).
  void commit();
  /// Final paths of the files handed to the set so far.
  std::vector<std::string> paths() const;

  /// Makes a set current on another thread (a writer thread) for the guard's lifetime.
  class Use {
  public:
    explicit Use(OutputSet& set);
    ~Use();
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

  private:
    OutputSet* previous_;
  };

private:
  friend class AtomicFile;
  struct Pending {
    std::string tmp, path;
    int slot;
  };
  void adopt(Pending p);
  mutable std::mutex mutex_;
  std::vector<Pending> pending_;
  OutputSet* previous_;
  bool committed_ = false;
};

/// For the program's SIGINT/SIGTERM handler: true while an OutputSet renames its files, in which
/// case the signal is recorded and raised again after the last rename (async-signal-safe).
bool defer_terminating_signal(int sig) noexcept;

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
