#pragma once
/// @file owner.hpp
/// @brief Who is aligning a movie: a worker of a process on a host, and whether that process
/// still exists (docs/session.md#journal).
#include <string>

namespace frost::session {

/// A worker (one GPU or CPU slot) of one process on one host.
struct Owner {
  std::string host;
  long long pid = 0;
  /// When the process started, in clock ticks since boot (Linux /proc/<pid>/stat, field 22), or 0
  /// where the system does not say. It tells the owner from a later process that reuses its pid.
  long long start_ticks = 0;
  int worker = 0;

  /// "host:pid/worker", for messages and the journal.
  std::string to_string() const;
};

/// This process, as the owner of worker `worker`.
Owner this_process(int worker = 0);

/// The start time of process `pid` in clock ticks since boot, or 0 when unknown (no such process,
/// or no /proc).
long long process_start_ticks(long long pid);

/// Whether an owner's process still runs. Only a process of this host can be judged; another
/// host's owner is Unknown.
enum class Liveness { Alive, Gone, Unknown };
Liveness liveness(const Owner& owner);

} // namespace frost::session
