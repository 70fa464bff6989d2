#include "frost/session/owner.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

#include "frost/core/device.hpp" // host_name

namespace frost::session {

std::string Owner::to_string() const { return host + ":" + std::to_string(pid) + "/" + std::to_string(worker); }

Owner this_process(int worker) {
  Owner o;
  o.host = host_name();
  o.pid = static_cast<long long>(::getpid());
  o.start_ticks = process_start_ticks(o.pid);
  o.worker = worker;
  return o;
}

namespace {

/// Fields 3 (state) and 22 (start time) of /proc/<pid>/stat; false when unreadable.
bool read_proc_stat(long long pid, char& state, long long& start_ticks) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!in || !std::getline(in, line)) return false;
  // The command name (field 2) is in parentheses and may hold spaces or ')': fields are counted
  // from the last ')'.
  const std::size_t close = line.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream fields(line.substr(close + 1));
  std::string token;
  for (int field = 3; field <= 22; ++field) {
    if (!(fields >> token)) return false;
    if (field == 3) state = token.empty() ? '?' : token[0];
  }
  try {
    start_ticks = std::stoll(token);
  } catch (...) {
    return false;
  }
  return true;
}

} // namespace

long long process_start_ticks(long long pid) {
  char state = '?';
  long long start = 0;
  return read_proc_stat(pid, state, start) ? start : 0;
}

Liveness liveness(const Owner& owner) {
  if (owner.host != host_name()) return Liveness::Unknown;
  if (owner.pid <= 0) return Liveness::Gone;
  if (::kill(static_cast<pid_t>(owner.pid), 0) != 0 && errno == ESRCH) return Liveness::Gone;
  // The pid exists (or belongs to another user, EPERM): it is the owner unless it is a zombie
  // (it can finish nothing) or its start time says it is a newer process with the same pid.
  char state = '?';
  long long start = 0;
  if (read_proc_stat(owner.pid, state, start)) {
    if (state == 'Z' || state == 'X') return Liveness::Gone;
    if (owner.start_ticks != 0 && start != owner.start_ticks) return Liveness::Gone;
  }
  return Liveness::Alive;
}

} // namespace frost::session
