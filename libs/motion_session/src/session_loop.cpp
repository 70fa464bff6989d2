// The session loop (docs/session.md#the-session-loop). Per movie the write order is fixed:
// outputs committed (by the caller), then the record appended, then the journal's done. A kill
// between two of these steps leaves the movie `running`; the next run puts it back and redoes
// it, and read_records() keeps the last of its records.
#include "frost/motion_session/session_loop.hpp"

#include <chrono>
#include <map>
#include <set>
#include <thread>
#include <unistd.h>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/session/completeness.hpp"
#include "frost/session/completion_gate.hpp"
#include "frost/session/fingerprint.hpp"
#include "frost/session/input_spec.hpp"
#include "frost/session/owner.hpp"
#include "frost/session/records_file.hpp"
#include "frost/session/watcher.hpp"

namespace frost::motion_session {

namespace {

using Clock = std::chrono::steady_clock;

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string host_name() {
  char buf[256] = {};
  return ::gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string();
}

/// Whether `path` was last modified at least `seconds` ago (false when it cannot be read).
bool unmodified_for(const std::string& path, double seconds) {
  try {
    return unix_now() - static_cast<double>(session::fingerprint_of(path).mtime_ns) * 1e-9 >= seconds;
  } catch (const Error&) {
    return false;
  }
}

/// One process's side of a session: the journal, what it has seen, and its tallies.
class Session {
public:
  Session(const SessionSettings& s, const ProcessMovie& process)
      : s_(s), process_(process), journal_(s.dir, s.parameter_hash, s.journal), self_(session::this_process()),
        host_(host_name()) {}

  /// Records a file found in the input (idempotent across runs and processes).
  void add(const std::string& path) {
    found_at_.emplace(path, unix_now());
    try {
      journal_.add(session::fingerprint_of(path));
    } catch (const Error& e) { // removed between the scan and the stat: nothing to do
      log_detail(std::string("session: ") + e.what());
    }
  }

  /// Claims and aligns every movie that is ready. `ending`: a movie still incomplete fails now.
  /// Returns how many it claimed.
  int drain(bool ending) {
    int n = 0;
    for (; std::optional<session::MovieEntry> e = journal_.claim_next(self_); ++n) run_one(*e, ending);
    return n;
  }

  long long seen() { return journal_.counts().seen; }

  SessionResult result() {
    const session::JournalCounts c = journal_.counts();
    result_.journal_done = c.done;
    result_.journal_failed = c.failed;
    if (c.failed > 0 && result_.exit_code == 0) result_.exit_code = static_cast<int>(ExitCode::Input);
    if (c.failed == 0) result_.exit_code = 0; // failures of this run that a retry later fixed
    return result_;
  }

  long long pending() {
    const session::JournalCounts c = journal_.counts();
    return c.seen + c.running;
  }

private:
  void run_one(const session::MovieEntry& e, bool ending) {
    const std::string& path = e.fingerprint.path;
    const double check_at = unix_now();
    // The structure is checked again at the claim: a row may come from another process or an
    // earlier run, and the file may have been replaced since.
    const session::CompletenessResult c = session::check_movie_structure(path);
    if (c.status == session::Completeness::Truncated || c.status == session::Completeness::NotYet) {
      if (!ending) {
        journal_.defer(e.id, self_, c.reason, 1.0);
        return;
      }
    }
    session::MovieRecord r;
    r.movie = path;
    r.order = e.id;
    r.attempts = e.attempts;
    r.host = host_;
    r.device = s_.device;
    auto found = found_at_.find(path);
    r.found_at = found != found_at_.end() ? found->second : check_at;
    r.check_at = check_at;
    r.movie_bytes = c.file_bytes;
    int code = 0;
    if (c.status == session::Completeness::Truncated || c.status == session::Completeness::NotYet) {
      r.status = "failed";
      r.reason = c.status == session::Completeness::Truncated ? c.reason
                                                              : "never complete: " + c.reason;
      code = static_cast<int>(ExitCode::Input);
    } else {
      r.motion_at = unix_now();
      try {
        process_(path, r);
      } catch (const Error& err) {
        r.status = "failed";
        r.reason = err.what();
        code = static_cast<int>(err.code());
      } catch (const std::exception& err) { // e.g. out of memory on one movie: the session goes on
        r.status = "failed";
        r.reason = err.what();
        code = static_cast<int>(ExitCode::Runtime);
      }
    }
    if (r.status == "failed" && r.reason.empty()) r.reason = "unknown failure";
    r.ready_at = unix_now();
    session::append_record(records_path(s_.dir), r);
    bool ours = false;
    if (r.done()) {
      ours = journal_.finish(e.id, self_);
      ++result_.done;
      log_info("[" + std::to_string(e.id) + "] " + path + ": done");
    } else {
      ours = journal_.fail(e.id, self_, r.reason);
      ++result_.failed;
      if (result_.exit_code == 0) result_.exit_code = code;
      log_error("[" + std::to_string(e.id) + "] " + path + ": " + r.reason);
    }
    if (!ours) log_warning(path + ": the journal gave this movie to another worker meanwhile");
    rewrite_session_summary(s_.dir, s_.optics, pending());
  }

  const SessionSettings& s_;
  const ProcessMovie& process_;
  session::Journal journal_;
  session::Owner self_;
  std::string host_;
  std::map<std::string, double> found_at_;
  SessionResult result_;
};

} // namespace

SessionResult run_session(const SessionSettings& s, const ProcessMovie& process) {
  Session session(s, process);
  session::WatcherOptions wo;
  wo.poll = s.poll;
  wo.poll_interval_s = s.poll_interval_s;
  session::Watcher watcher(session::parse_input_spec(s.input), wo);
  log_info("session " + s.dir + ": input " + s.input + (s.watch ? ", watching (" + watcher.mode() + ")" : ""));

  if (!s.watch) {
    // The files present now, once: each is checked at its claim, and an incomplete one fails.
    for (const session::WatchEvent& ev : watcher.next(std::chrono::milliseconds(0))) session.add(ev.path);
    session.drain(true);
  } else {
    session::CompletionGate gate(s.stable_s);
    session::IdleTimer idle(s.watch_timeout_s);
    std::set<std::string> waiting; // seen, not yet complete
    bool first = true;
    while (true) {
      const double left = idle.remaining();
      if (left <= 0) break;
      // Short waits while a file is pending: the gate's stable-size clock needs looking at.
      const double wait_s = first ? 0.0 : std::min(left, waiting.empty() ? 1.0 : 0.2);
      for (const session::WatchEvent& ev : watcher.next(std::chrono::milliseconds(static_cast<long>(wait_s * 1000)))) {
        // A file of the first scan not modified for the stable time has been stable that long:
        // the backlog of a restarted session starts at once (the structure check still applies).
        if (ev.closed || (first && unmodified_for(ev.path, s.stable_s))) gate.mark_closed(ev.path);
        waiting.insert(ev.path);
      }
      first = false;
      for (auto it = waiting.begin(); it != waiting.end();) {
        const session::CompletenessResult c = gate.check(*it);
        if (c.status == session::Completeness::Complete || c.status == session::Completeness::Invalid) {
          session.add(*it); // an invalid file fails at its claim with the pipeline's reason
          gate.forget(*it);
          idle.progress();
          it = waiting.erase(it);
        } else {
          ++it;
        }
      }
      // Aligning takes time that is not idle time.
      if (session.drain(false) > 0) idle.progress();
    }
    // The session ends: files that never became complete are recorded as failed, with the reason.
    for (const std::string& path : waiting) session.add(path);
    session.drain(true);
    // A movie deferred just before the end is handed out again after its retry time.
    if (session.seen() > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1100));
      session.drain(true);
    }
  }
  rewrite_session_summary(s.dir, s.optics, session.pending());
  return session.result();
}

} // namespace frost::motion_session
