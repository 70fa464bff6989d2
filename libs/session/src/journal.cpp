#include "frost/session/journal.hpp"

#include <chrono>
#include <filesystem>
#include <system_error>

#include "frost/core/error.hpp"
#include "sqlite.hpp"

namespace frost::session {

namespace {

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The schema (docs/session.md#journal). `id` is the order of discovery; `crashes` counts the
// workers that died holding the movie, which max_attempts bounds (attempts also counts clean
// failures and retries).
constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS session (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS movies (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  path TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL,
  parameter_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('seen', 'running', 'done', 'failed')),
  reason TEXT NOT NULL DEFAULT '',
  attempts INTEGER NOT NULL DEFAULT 0,
  crashes INTEGER NOT NULL DEFAULT 0,
  not_before REAL NOT NULL DEFAULT 0,
  owner TEXT NOT NULL DEFAULT '',
  owner_host TEXT NOT NULL DEFAULT '',
  owner_pid INTEGER NOT NULL DEFAULT 0,
  owner_start INTEGER NOT NULL DEFAULT 0,
  seen_at REAL NOT NULL,
  started_at REAL NOT NULL DEFAULT 0,
  finished_at REAL NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS movies_by_state ON movies (state, id);
)sql";

constexpr const char* kEntryColumns = "id, path, size, mtime_ns, parameter_hash, state, reason, attempts, owner";

MovieEntry read_entry(const sql::Statement& s) {
  MovieEntry e;
  e.id = s.int64(0);
  e.fingerprint.path = s.text(1);
  e.fingerprint.size = s.int64(2);
  e.fingerprint.mtime_ns = s.int64(3);
  e.parameter_hash = s.text(4);
  e.state = parse_movie_state(s.text(5)).value_or(MovieState::Failed);
  e.reason = s.text(6);
  e.attempts = static_cast<int>(s.int64(7));
  e.owner = s.text(8);
  return e;
}

} // namespace

const char* to_string(MovieState state) {
  switch (state) {
  case MovieState::Seen: return "seen";
  case MovieState::Running: return "running";
  case MovieState::Done: return "done";
  case MovieState::Failed: return "failed";
  }
  return "failed";
}

std::optional<MovieState> parse_movie_state(const std::string& text) {
  for (MovieState s : {MovieState::Seen, MovieState::Running, MovieState::Done, MovieState::Failed})
    if (text == to_string(s)) return s;
  return std::nullopt;
}

Journal::Journal(const std::string& session_dir, const std::string& parameter_hash, const JournalOptions& options,
                 const Owner& self)
    : parameter_hash_(parameter_hash), self_(self), max_attempts_(options.max_attempts) {
  std::error_code ec;
  std::filesystem::create_directories(session_dir, ec);
  if (ec) throw_input_error(session_dir, "cannot create the session folder (" + ec.message() + ")");
  db_ = std::make_unique<sql::Database>(session_dir + "/" + kFileName, true, options.busy_timeout_ms);
  open_session(options);
}

Journal::~Journal() = default;

const std::string& Journal::path() const { return db_->path(); }

void Journal::open_session(const JournalOptions& options) {
  // WAL lets readers (the report, `select`) run beside the writers; NORMAL synchronisation keeps
  // every committed transaction through a killed process (only a machine crash may lose the last
  // ones), docs/session.md#journal.
  // The mode is kept in the file: a session made in WAL mode and opened for several hosts is
  // switched back, so that no process relies on the shared-memory index.
  // Switching the mode needs the file to itself, so while other processes open the same new
  // journal (ranks started together) SQLite answers BUSY at once: the opening steps are retried.
  const char* want = options.wal ? "wal" : "delete";
  db_->retry_while_busy([&] {
    auto mode = db_->prepare(std::string("PRAGMA journal_mode=") + want);
    if (!mode.step() || mode.text(0) != want)
      db_->fail(std::string("cannot switch the journal to ") + want + " mode");
  });
  db_->exec("PRAGMA synchronous=NORMAL");
  db_->retry_while_busy([&] { db_->exec(kSchema); });

  const double opened_at = unix_now();
  sql::WriteTransaction tx(*db_);
  std::optional<std::string> stored;
  {
    auto get = db_->prepare("SELECT value FROM session WHERE key = 'parameter_hash'");
    if (get.step()) stored = get.text(0);
  }
  if (!stored) {
    db_->prepare("INSERT INTO session (key, value) VALUES ('parameter_hash', ?)").bind(1, parameter_hash_).run();
  } else if (const std::string before = *stored; before != parameter_hash_) {
    if (!options.overwrite)
      FROST_THROW(ExitCode::Usage, "session " + db_->path() + " was made with other parameters (hash " + before +
                                       ", now " + parameter_hash_ +
                                       "): use a new session folder, or --overwrite to redo every movie with the new "
                                       "parameters");
    db_->prepare("UPDATE session SET value = ? WHERE key = 'parameter_hash'").bind(1, parameter_hash_).run();
    // Every movie made with other parameters is redone; a process still running one with the old
    // parameters finds its row taken back at finish() and claims nothing more (claim_next).
    db_->prepare("UPDATE movies SET state = 'seen', reason = 'parameters changed', not_before = 0, crashes = 0 "
                 "WHERE parameter_hash != ?")
        .bind(1, parameter_hash_)
        .run();
  }
  if (options.retry_failed) {
    // Only movies that failed before this process started: under mpirun every rank opens the
    // journal, and a movie that failed in this run must not be retried once per rank.
    db_->prepare("UPDATE movies SET state = 'seen', reason = '', not_before = 0, crashes = 0 "
                 "WHERE state = 'failed' AND finished_at < ?")
        .bind(1, opened_at)
        .run();
  }
  tx.commit();
  recover_stale();
}

int Journal::recover_stale() {
  sql::WriteTransaction tx(*db_);
  struct Stale {
    std::int64_t id;
    int crashes;
    std::string owner;
  };
  std::vector<Stale> stale;
  {
    auto q = db_->prepare("SELECT id, owner_host, owner_pid, owner_start, crashes, owner FROM movies WHERE state = 'running'");
    while (q.step()) {
      Owner o;
      o.host = q.text(1);
      o.pid = q.int64(2);
      o.start_ticks = q.int64(3);
      if (liveness(o) == Liveness::Gone) stale.push_back({q.int64(0), static_cast<int>(q.int64(4)), q.text(5)});
    }
  }
  for (const Stale& s : stale) {
    const int crashes = s.crashes + 1;
    if (crashes >= max_attempts_) {
      db_->prepare("UPDATE movies SET state = 'failed', crashes = ?, finished_at = ?, reason = ? WHERE id = ?")
          .bind(1, crashes)
          .bind(2, unix_now())
          .bind(3, "the process aligning it ended without finishing it " + std::to_string(crashes) +
                       " times (killed, or crashed on this movie; last " + s.owner + ")")
          .bind(4, s.id)
          .run();
    } else {
      db_->prepare("UPDATE movies SET state = 'seen', crashes = ?, not_before = 0, reason = ? WHERE id = ?")
          .bind(1, crashes)
          .bind(2, "interrupted: " + s.owner + " ended without finishing it")
          .bind(3, s.id)
          .run();
    }
  }
  tx.commit();
  return static_cast<int>(stale.size());
}

AddResult Journal::add(const Fingerprint& movie) {
  sql::WriteTransaction tx(*db_);
  db_->prepare("INSERT INTO movies (path, size, mtime_ns, parameter_hash, state, seen_at) VALUES (?, ?, ?, ?, 'seen', ?) "
               "ON CONFLICT (path) DO NOTHING")
      .bind(1, movie.path)
      .bind(2, movie.size)
      .bind(3, movie.mtime_ns)
      .bind(4, parameter_hash_)
      .bind(5, unix_now())
      .run();
  AddResult result = AddResult::New;
  if (db_->changes() == 0) {
    bool same = true;
    std::string state;
    {
      auto q = db_->prepare("SELECT size, mtime_ns, state FROM movies WHERE path = ?");
      q.bind(1, movie.path);
      q.step();
      same = q.int64(0) == movie.size && q.int64(1) == movie.mtime_ns;
      state = q.text(2);
    }
    result = AddResult::Known;
    // A file that changed while seen is still being written; a failed one was replaced (e.g. a
    // truncated copy completed): both are looked at again. Running and done movies are left as
    // they are (docs/session.md#journal).
    if (!same && (state == "seen" || state == "failed")) {
      db_->prepare("UPDATE movies SET size = ?, mtime_ns = ?, state = 'seen', reason = '', not_before = 0 WHERE path = ?")
          .bind(1, movie.size)
          .bind(2, movie.mtime_ns)
          .bind(3, movie.path)
          .run();
      result = AddResult::Changed;
    }
  }
  tx.commit();
  return result;
}

std::optional<MovieEntry> Journal::claim_next(const Owner& worker) {
  sql::WriteTransaction tx(*db_);
  {
    auto h = db_->prepare("SELECT value FROM session WHERE key = 'parameter_hash'");
    if (h.step() && h.text(0) != parameter_hash_)
      FROST_THROW(ExitCode::Usage, "session " + db_->path() + " was switched to other parameters (hash " + h.text(0) +
                                       ") by another process (--overwrite): this one stops");
  }
  const double now = unix_now();
  MovieEntry e;
  {
    auto q = db_->prepare(std::string("SELECT ") + kEntryColumns +
                          " FROM movies WHERE state = 'seen' AND not_before <= ? ORDER BY id LIMIT 1");
    q.bind(1, now);
    if (!q.step()) return std::nullopt;
    e = read_entry(q);
  }
  db_->prepare("UPDATE movies SET state = 'running', attempts = attempts + 1, parameter_hash = ?, owner = ?, "
               "owner_host = ?, owner_pid = ?, owner_start = ?, started_at = ? WHERE id = ?")
      .bind(1, parameter_hash_)
      .bind(2, worker.to_string())
      .bind(3, worker.host)
      .bind(4, static_cast<std::int64_t>(worker.pid))
      .bind(5, static_cast<std::int64_t>(worker.start_ticks))
      .bind(6, now)
      .bind(7, e.id)
      .run();
  tx.commit();
  e.state = MovieState::Running;
  e.attempts += 1;
  e.parameter_hash = parameter_hash_;
  e.owner = worker.to_string();
  return e;
}

bool Journal::finish_as(std::int64_t id, const Owner& worker, MovieState state, const std::string& reason,
                        double retry_after_s) {
  sql::WriteTransaction tx(*db_);
  const double now = unix_now();
  if (state == MovieState::Seen) {
    db_->prepare("UPDATE movies SET state = 'seen', attempts = attempts - 1, reason = ?, not_before = ? "
                 "WHERE id = ? AND state = 'running' AND owner = ?")
        .bind(1, reason)
        .bind(2, now + retry_after_s)
        .bind(3, id)
        .bind(4, worker.to_string())
        .run();
  } else {
    db_->prepare("UPDATE movies SET state = ?, reason = ?, finished_at = ? WHERE id = ? AND state = 'running' AND owner = ?")
        .bind(1, std::string(to_string(state)))
        .bind(2, reason)
        .bind(3, now)
        .bind(4, id)
        .bind(5, worker.to_string())
        .run();
  }
  const bool ours = db_->changes() == 1;
  tx.commit();
  return ours;
}

bool Journal::finish(std::int64_t id, const Owner& worker) { return finish_as(id, worker, MovieState::Done, "", 0); }

bool Journal::fail(std::int64_t id, const Owner& worker, const std::string& reason) {
  return finish_as(id, worker, MovieState::Failed, reason, 0);
}

bool Journal::defer(std::int64_t id, const Owner& worker, const std::string& reason, double retry_after_s) {
  return finish_as(id, worker, MovieState::Seen, reason, retry_after_s);
}

JournalCounts Journal::counts() {
  JournalCounts c;
  auto q = db_->prepare("SELECT state, COUNT(*) FROM movies GROUP BY state");
  while (q.step()) {
    const auto state = parse_movie_state(q.text(0));
    const std::int64_t n = q.int64(1);
    if (!state) continue;
    switch (*state) {
    case MovieState::Seen: c.seen = n; break;
    case MovieState::Running: c.running = n; break;
    case MovieState::Done: c.done = n; break;
    case MovieState::Failed: c.failed = n; break;
    }
  }
  return c;
}

std::vector<MovieEntry> Journal::entries(std::optional<MovieState> state) {
  std::vector<MovieEntry> out;
  auto q = state ? db_->prepare(std::string("SELECT ") + kEntryColumns + " FROM movies WHERE state = ? ORDER BY id")
                 : db_->prepare(std::string("SELECT ") + kEntryColumns + " FROM movies ORDER BY id");
  if (state) q.bind(1, std::string(to_string(*state)));
  while (q.step()) out.push_back(read_entry(q));
  return out;
}

std::optional<MovieEntry> Journal::find(const std::string& path) {
  auto q = db_->prepare(std::string("SELECT ") + kEntryColumns + " FROM movies WHERE path = ?");
  q.bind(1, path);
  if (!q.step()) return std::nullopt;
  return read_entry(q);
}

} // namespace frost::session
