#pragma once
/// @file journal.hpp
/// @brief The session journal: every movie's state in an SQLite database in the session folder,
/// shared by every process and worker of the session (docs/session.md#journal).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frost/session/fingerprint.hpp"
#include "frost/session/owner.hpp"

namespace frost::session {

namespace sql {
class Database;
}

/// seen: found, waiting to be aligned; running: claimed by a worker; done; failed (with a reason).
enum class MovieState { Seen, Running, Done, Failed };

/// "seen", "running", "done", "failed".
const char* to_string(MovieState state);
/// The inverse of to_string(); nullopt for other text.
std::optional<MovieState> parse_movie_state(const std::string& text);

/// One movie's row.
struct MovieEntry {
  std::int64_t id = 0; ///< order of discovery (the acquisition order when movies are added in mtime order)
  Fingerprint fingerprint;
  std::string parameter_hash;
  MovieState state = MovieState::Seen;
  std::string reason;   ///< why it failed, or why it was put back
  int attempts = 0;     ///< how often a worker started it
  std::string owner;    ///< Owner::to_string() of the worker running it (or that last ran it)
};

struct JournalOptions {
  /// Parameters differ from the session's: redo every movie with the new ones instead of refusing.
  bool overwrite = false;
  /// Failed movies (failed before this process opened the journal) go back to `seen`.
  bool retry_failed = false;
  /// How long a statement waits for another process's write lock.
  int busy_timeout_ms = 60000;
  /// A movie whose worker died this many times is marked failed instead of being started again:
  /// a file that crashes the program must not stop the session.
  int max_attempts = 3;
  /// WAL needs shared memory between the processes: off for a session folder that processes on
  /// several hosts share over a network file system (docs/session.md#journal).
  bool wal = true;
};

/// Movies per state.
struct JournalCounts {
  std::int64_t seen = 0, running = 0, done = 0, failed = 0;
  std::int64_t total() const { return seen + running + done + failed; }
};

/// What add() did.
enum class AddResult {
  New,     ///< a new row in state seen
  Known,   ///< the same file was already there; nothing changed
  Changed  ///< a seen or failed row whose file changed: its fingerprint was updated (a failed one goes back to seen)
};

/// @brief The journal of one session folder, opened by one process (each thread of it may use
/// its own Journal on the same folder; one Journal is not thread-safe).
///
/// Every change is one SQLite write transaction taken at its start (BEGIN IMMEDIATE), so
/// claim_next() hands each movie to exactly one worker among all processes.
class Journal {
public:
  /// The database file in the session folder.
  static constexpr const char* kFileName = "journal.sqlite";

  /// Opens (creating the folder and the database) the journal of `session_dir` for work with
  /// `parameter_hash`, on behalf of `self`'s process. On open: a session made with other
  /// parameters is refused (frost::Error(Usage), naming both hashes and the way out) unless
  /// `overwrite`; movies left `running` by a process of this host that no longer exists go back
  /// to `seen` (or to `failed` after max_attempts); with `retry_failed` failed movies go back to
  /// `seen`. frost::Error(Input) names the database when it cannot be opened or written.
  Journal(const std::string& session_dir, const std::string& parameter_hash, const JournalOptions& options = {},
          const Owner& self = this_process());
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  const std::string& path() const;
  const std::string& parameter_hash() const { return parameter_hash_; }

  /// Records a movie found in the input (idempotent; any process may add the same file).
  AddResult add(const Fingerprint& movie);

  /// Takes the first `seen` movie in id order whose retry time has come, marks it `running` by
  /// `worker` and counts the attempt, in one transaction. nullopt when none is ready.
  std::optional<MovieEntry> claim_next(const Owner& worker);

  /// The movie is done. False when the row is no longer `running` by `worker` (another process
  /// judged it stale and took it back): the caller's outputs are then not the journal's.
  bool finish(std::int64_t id, const Owner& worker);
  /// The movie failed for `reason`; same return as finish().
  bool fail(std::int64_t id, const Owner& worker, const std::string& reason);
  /// The movie is not complete yet: back to `seen`, not counted as an attempt, and not handed out
  /// again for `retry_after_s` seconds. Same return as finish().
  bool defer(std::int64_t id, const Owner& worker, const std::string& reason, double retry_after_s);

  /// Puts back `running` rows whose owner process on this host is gone (what the constructor
  /// does; a long session may call it now and then). Returns how many rows it touched.
  int recover_stale();

  JournalCounts counts();
  /// Every row in id order, or those in `state`.
  std::vector<MovieEntry> entries(std::optional<MovieState> state = std::nullopt);
  std::optional<MovieEntry> find(const std::string& path);

private:
  void open_session(const JournalOptions& options);
  bool finish_as(std::int64_t id, const Owner& worker, MovieState state, const std::string& reason, double retry_after_s);

  std::unique_ptr<sql::Database> db_;
  std::string parameter_hash_;
  Owner self_;
  int max_attempts_ = 3;
};

} // namespace frost::session
