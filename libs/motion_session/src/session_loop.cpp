// The session loop (docs/session.md#the-session-loop). The calling thread follows the input and
// adds complete movies to the journal; one worker thread per device claims and aligns them, each
// with a Journal of its own (claims are transactions, so no movie runs twice). Per movie the write
// order is fixed: outputs committed (by the caller), then the record appended, then the journal's
// done. A kill between two of these steps leaves the movie `running`; the next run puts it back
// and redoes it, and read_records() keeps the last of its records.
#include "frost/motion_session/session_loop.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <future>
#include <memory>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/heap_limits.hpp"
#include "frost/core/host_buffer.hpp"
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

/// Gives the pages that the movie's threads freed back to the system. glibc keeps freed memory in
/// per-thread arenas; this releases their free chunks, and the heap limits the program set at start
/// (docs/conventions.md#host-memory) bound what their tops keep.
void return_free_memory() { release_free_heap(); }

/// The process's memory as the log shows it after each movie: resident, and the pinned blocks held
/// (handed out, and kept for reuse), so that a long session's log shows where memory goes.
std::string memory_note() {
  const auto mib = [](std::size_t bytes) { return std::to_string(bytes >> 20); };
  return " (resident " + mib(resident_memory_bytes()) + " MiB; pinned " + mib(pinned_live_bytes()) + " MiB in use, " +
         mib(pinned_cache_free_bytes()) + " MiB kept)";
}

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// Whether `path` was last modified at least `seconds` ago (false when it cannot be read).
bool unmodified_for(const std::string& path, double seconds) {
  try {
    return unix_now() - static_cast<double>(session::fingerprint_of(path).mtime_ns) * 1e-9 >= seconds;
  } catch (const Error&) {
    return false;
  }
}

/// What the feeding thread and the workers share.
struct Shared {
  Shared(const SessionSettings& settings, const ProcessMovie& p) : s(settings), process(p) {}
  const SessionSettings& s;
  const ProcessMovie& process;
  std::string host = host_name();
  std::mutex mutex; ///< found_at, result, and the summary files (one writer at a time)
  std::map<std::string, double> found_at;
  SessionResult result;
  std::atomic<bool> input_done{false}; ///< no more files will be added: incomplete ones fail now
  std::atomic<int> busy{0};            ///< workers inside a movie
  std::atomic<long long> finished{0};  ///< movies finished by this process
  double summary_at = 0;               ///< when the summary files were last rewritten (under mutex)
};

/// One worker: claims movies until the input is done and nothing is left.
class Worker {
public:
  Worker(Shared& sh, int index)
      : sh_(sh), index_(index), self_(session::this_process(index)),
        // The feeder's journal has applied --overwrite and --retry-failed already.
        journal_(sh.s.dir, sh.s.parameter_hash, worker_options(sh.s.journal), self_) {}

  void run() {
    bool waited_for_deferred = false;
    std::optional<session::MovieEntry> ahead; // claimed while the movie before it ran
    while (true) {
      const bool ending = sh_.input_done.load();
      std::optional<session::MovieEntry> e = ahead ? std::move(ahead) : journal_.claim_next(self_);
      ahead.reset();
      if (e) {
        // With claim_ahead the next movie is claimed now, so that the caller can load it while this
        // one aligns; a kill leaves both `running`, and the next run redoes both.
        if (sh_.s.claim_ahead) ahead = journal_.claim_next(self_);
        ++sh_.busy;
        run_one(*e, ending, ahead ? ready_path(*ahead) : std::string());
        --sh_.busy;
        continue;
      }
      if (ending) {
        wait_behind();
        // A movie deferred just before the end is handed out again after its retry time.
        if (!waited_for_deferred && journal_.counts().seen > 0) {
          waited_for_deferred = true;
          std::this_thread::sleep_for(std::chrono::milliseconds(1100));
          continue;
        }
        return;
      }
      // Nothing ready: look again soon (a claim is one short transaction; the movie starts within
      // this wait of being added).
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

private:
  static session::JournalOptions worker_options(session::JournalOptions o) {
    o.overwrite = false;
    o.retry_failed = false;
    return o;
  }

  /// The path of a claimed movie when it is complete now (what may be loaded ahead), else "".
  static std::string ready_path(const session::MovieEntry& e) {
    const session::Completeness c = session::check_movie_structure(e.fingerprint.path).status;
    return c == session::Completeness::Complete ? e.fingerprint.path : std::string();
  }

  void run_one(const session::MovieEntry& e, bool ending, const std::string& next) {
    const std::string& path = e.fingerprint.path;
    const double check_at = unix_now();
    // The structure is checked again at the claim: a row may come from another process or an
    // earlier run, and the file may have been replaced since.
    const session::CompletenessResult c = session::check_movie_structure(path);
    const bool incomplete = c.status == session::Completeness::Truncated || c.status == session::Completeness::NotYet;
    if (incomplete && !ending) {
      journal_.defer(e.id, self_, c.reason, 1.0);
      return;
    }
    session::MovieRecord r;
    r.movie = path;
    r.order = e.id;
    r.attempts = e.attempts;
    r.host = sh_.host;
    r.device = sh_.s.devices[static_cast<std::size_t>(index_)];
    {
      std::lock_guard<std::mutex> lock(sh_.mutex);
      auto found = sh_.found_at.find(path);
      r.found_at = found != sh_.found_at.end() ? found->second : check_at;
    }
    r.check_at = check_at;
    r.movie_bytes = c.file_bytes;
    int code = 0;
    if (incomplete) {
      r.status = "failed";
      r.reason = c.status == session::Completeness::Truncated ? c.reason : "never complete: " + c.reason;
      code = static_cast<int>(ExitCode::Input);
    } else {
      r.motion_at = unix_now();
      FinishMovie finish;
      guarded(r, code, [&] { finish = sh_.process(index_, path, next, r); });
      if (finish && r.status != "failed") {
        if (sh_.s.write_behind) {
          write_behind(e, std::move(r), std::move(finish));
          return;
        }
        guarded(r, code, [&] { finish(r); });
      }
    }
    complete(journal_, e, r, code);
  }

  /// Runs `step`; an exception fails the movie with its message and exit code.
  template <class Step>
  static void guarded(session::MovieRecord& r, int& code, Step&& step) {
    try {
      step();
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

  /// The rest of a movie on the worker's write-behind thread while the worker goes on: one movie
  /// at a time, in claim order, with a Journal of its own (a Journal is not thread-safe).
  void write_behind(const session::MovieEntry& e, session::MovieRecord r, FinishMovie finish) {
    wait_behind();
    if (!behind_journal_)
      behind_journal_ = std::make_unique<session::Journal>(sh_.s.dir, sh_.s.parameter_hash,
                                                            worker_options(sh_.s.journal), self_);
    ++sh_.busy;
    behind_ = std::async(std::launch::async, [this, e, r = std::move(r), finish = std::move(finish)]() mutable {
      struct Idle {
        std::atomic<int>& busy;
        ~Idle() { --busy; }
      } idle{sh_.busy};
      int code = 0;
      guarded(r, code, [&] { finish(r); });
      complete(*behind_journal_, e, r, code);
    });
  }

  /// Waits for the movie being written behind; rethrows what its journal steps threw.
  void wait_behind() {
    if (behind_.valid()) behind_.get();
  }

  /// Record, then done or failed in the journal, then the counts and the summary files.
  void complete(session::Journal& journal, const session::MovieEntry& e, session::MovieRecord& r, int code) {
    const std::string& path = e.fingerprint.path;
    if (r.status == "failed" && r.reason.empty()) r.reason = "unknown failure";
    r.ready_at = unix_now();
    session::append_record(records_path(sh_.s.dir), r);
    const bool ours = r.done() ? journal.finish(e.id, self_) : journal.fail(e.id, self_, r.reason);
    const std::string tag = "[" + std::to_string(e.id) + "] " + path + " (" + r.device + ")";
    if (r.done()) log_info(tag + ": done" + memory_note());
    else log_error(tag + ": " + r.reason);
    if (!ours) log_warning(path + ": the journal gave this movie to another worker meanwhile");
    const session::JournalCounts counts = journal.counts();
    return_free_memory();
    std::lock_guard<std::mutex> lock(sh_.mutex);
    if (r.done()) {
      ++sh_.result.done;
    } else {
      ++sh_.result.failed;
      if (sh_.result.exit_code == 0) sh_.result.exit_code = code;
    }
    ++sh_.finished;
    // The summary files are rebuilt from all records (and two micrographs read back for the
    // thumbnails): at most once per interval while movies stream in, and always at the end.
    const double now = unix_now();
    if (now - sh_.summary_at >= sh_.s.summary_interval_s) {
      rewrite_session_summary(sh_.s.dir, sh_.s.optics, counts.seen + counts.running);
      sh_.summary_at = unix_now();
    }
  }

  Shared& sh_;
  int index_;
  session::Owner self_;
  session::Journal journal_;
  std::unique_ptr<session::Journal> behind_journal_; ///< the write-behind thread's
  std::future<void> behind_;                         ///< the movie being written behind
};

/// Runs one Worker per device on threads until the input is done; rethrows a worker's error
/// (the journal's, not a movie's) after every thread has ended.
class WorkerPool {
public:
  explicit WorkerPool(Shared& sh) {
    errors_.resize(sh.s.devices.size());
    for (std::size_t i = 0; i < sh.s.devices.size(); ++i)
      threads_.emplace_back([&sh, i, this] {
        try {
          Worker(sh, static_cast<int>(i)).run();
        } catch (...) {
          errors_[i] = std::current_exception();
          sh.input_done = true;
        }
      });
  }
  ~WorkerPool() { join_threads(); }
  void join() {
    join_threads();
    for (const std::exception_ptr& e : errors_)
      if (e) {
        std::exception_ptr first = e;
        errors_.clear();
        std::rethrow_exception(first);
      }
  }

private:
  void join_threads() {
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
  }
  std::vector<std::thread> threads_;
  std::vector<std::exception_ptr> errors_;
};

/// The calling thread's side: adds files to the journal in the order found.
void add_movie(Shared& sh, session::Journal& journal, const std::string& path) {
  {
    std::lock_guard<std::mutex> lock(sh.mutex);
    sh.found_at.emplace(path, unix_now());
  }
  try {
    journal.add(session::fingerprint_of(path));
  } catch (const Error& e) { // removed between the scan and the stat: nothing to do
    log_detail(std::string("session: ") + e.what());
  }
}

/// --watch: follows the input until the idle timer runs out, adding each movie once complete.
void follow_input(Shared& sh, session::Journal& journal, session::Watcher& watcher) {
  const SessionSettings& s = sh.s;
  session::CompletionGate gate(s.stable_s);
  session::IdleTimer idle(s.watch_timeout_s);
  std::set<std::string> waiting; // seen, not yet complete
  long long finished = 0;
  bool first = true;
  while (true) {
    // Aligning is not idle time: a movie in progress or just finished holds the session open.
    if (sh.busy.load() > 0 || sh.finished.load() != finished) {
      finished = sh.finished.load();
      idle.progress();
    }
    const double left = idle.remaining();
    if (left <= 0 || sh.input_done.load()) break;
    // Short waits while a file is pending: the gate's stable-size clock needs looking at.
    const double wait_s = first ? 0.0 : std::min(left, waiting.empty() ? 0.5 : 0.2);
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
        add_movie(sh, journal, *it); // an invalid file fails at its claim with the pipeline's reason
        gate.forget(*it);
        idle.progress();
        it = waiting.erase(it);
      } else {
        ++it;
      }
    }
  }
  // The session ends: files that never became complete are recorded as failed, with the reason.
  for (const std::string& path : waiting) add_movie(sh, journal, path);
}

} // namespace

SessionResult run_session(const SessionSettings& s, const ProcessMovie& process) {
  if (s.devices.empty()) throw_usage_error("a session needs at least one device");
  Shared sh(s, process);
  // Opened first: it applies --overwrite and --retry-failed before any worker claims.
  session::Journal journal(s.dir, s.parameter_hash, s.journal);
  session::WatcherOptions wo;
  wo.poll = s.poll;
  wo.poll_interval_s = s.poll_interval_s;
  session::Watcher watcher(session::parse_input_spec(s.input), wo);
  log_info("session " + s.dir + ": input " + s.input + (s.watch ? ", watching (" + watcher.mode() + ")" : "") +
           ", " + std::to_string(s.devices.size()) + " worker(s)");
  if (!s.watch) {
    // The files present now, once: each is checked at its claim, and an incomplete one fails.
    for (const session::WatchEvent& ev : watcher.next(std::chrono::milliseconds(0))) add_movie(sh, journal, ev.path);
    sh.input_done = true;
  }
  {
    WorkerPool pool(sh);
    if (s.watch) {
      try {
        follow_input(sh, journal, watcher);
      } catch (...) {
        sh.input_done = true;
        throw; // the pool's destructor joins the workers first
      }
      sh.input_done = true;
    }
    pool.join();
  }
  const session::JournalCounts c = journal.counts();
  rewrite_session_summary(s.dir, s.optics, c.seen + c.running);
  SessionResult result = sh.result;
  result.journal_done = c.done;
  result.journal_failed = c.failed;
  if (c.failed > 0 && result.exit_code == 0) result.exit_code = static_cast<int>(ExitCode::Input);
  if (c.failed == 0) result.exit_code = 0; // failures of this run that a retry later fixed
  return result;
}

} // namespace frost::motion_session
