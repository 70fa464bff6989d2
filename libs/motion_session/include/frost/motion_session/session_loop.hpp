#pragma once
/// @file session_loop.hpp
/// @brief A live session of frost_movie_align (docs/session.md#the-session-loop): follow the
/// input, wait until each movie is complete, claim it in the journal, align and write it through
/// the caller, then record it, mark it done and rewrite the session's STAR and report.
#include <functional>
#include <string>
#include <vector>

#include "frost/session/journal.hpp"
#include "frost/session/micrographs_star.hpp"
#include "frost/session/movie_record.hpp"

namespace frost::motion_session {

struct SessionSettings {
  std::string input;             ///< -i: a folder, a quoted glob, or one file
  std::string dir;               ///< --session
  bool watch = false;            ///< follow the input until watch_timeout_s passes without a new movie
  double watch_timeout_s = 600;
  bool poll = false;             ///< scan instead of inotify
  double poll_interval_s = 0.5;
  double stable_s = 2.0;         ///< size unchanged this long counts as written (no close seen)
  std::string parameter_hash;    ///< session::parameter_hash() of the options that change outputs
  session::JournalOptions journal;
  session::OpticsGroup optics;   ///< for micrographs.star
  /// One worker thread per entry, each claiming from the journal on its own; the text is the
  /// records' device ("cpu" or "cuda:N"). One entry per GPU runs one movie per GPU at a time.
  std::vector<std::string> devices = {"cpu"};
  /// Each worker claims its next movie when it starts one and names it to ProcessMovie, which
  /// may load it meanwhile (a GPU worker; docs/session.md#loading-ahead-and-writing-behind).
  bool claim_ahead = false;
  /// micrographs.star and report.html are rewritten when a movie finishes at most once per this
  /// many seconds (0: after every movie), and always when the session ends.
  double summary_interval_s = 10;
  /// Each worker finishes a movie (ProcessMovie's FinishMovie, the record, the journal) on a
  /// thread of its own while it aligns the next one (docs/session.md#loading-ahead-and-writing-behind).
  bool write_behind = false;
};

/// @brief What is left of a movie once it is aligned: writing its outputs as one set (committed
/// before it returns) and filling `record`'s output fields. Throws like ProcessMovie.
using FinishMovie = std::function<void(session::MovieRecord& record)>;

/// @brief Aligns `movie` on worker `worker`'s device (index into SessionSettings::devices),
/// filling `record`'s movie fields (fill_motion_fields()), and returns what is left to do (empty
/// when it wrote everything itself). Called from the workers' threads, one movie per worker at a
/// time; the FinishMovie runs after it, on the worker's write-behind thread with
/// SessionSettings::write_behind (while the worker's next movie aligns), else on the worker's.
/// `next` is the movie this worker has claimed to do next and that is complete now ("" when none;
/// only with SessionSettings::claim_ahead), to be loaded while `movie` aligns.
/// Throws frost::Error (or another exception) when the movie fails; the loop records the message
/// as the reason.
using ProcessMovie = std::function<FinishMovie(int worker, const std::string& movie, const std::string& next,
                                               session::MovieRecord& record)>;

struct SessionResult {
  int done = 0, failed = 0;      ///< movies this process finished
  long long journal_done = 0, journal_failed = 0; ///< the whole session at the end
  /// 0 when no movie of the session is failed; else the exit code of this process's first
  /// failure, or 3 (input) for failures recorded by an earlier run.
  int exit_code = 0;
};

/// @brief Runs the session. Without `watch` the files present now are processed once. Movies are
/// taken in acquisition order (journal id); a movie not yet complete is deferred while watching
/// and failed with the structure's reason at the end. frost::Error(Usage) when the journal was
/// made with other parameters (unless settings.journal.overwrite); Input for a missing input
/// folder or an unwritable session folder.
SessionResult run_session(const SessionSettings& settings, const ProcessMovie& process);

/// Where the session keeps its files.
std::string records_path(const std::string& dir);          ///< DIR/records.jsonl
std::string micrographs_star_path(const std::string& dir); ///< DIR/micrographs.star
std::string report_path(const std::string& dir);           ///< DIR/report.html

/// Rewrites DIR/micrographs.star and DIR/report.html from DIR/records.jsonl (atomically), with
/// thumbnails of the latest and the worst done movies where their micrographs can be read. An
/// `optics` without an original pixel size (0) takes the first done record's, and then reads its
/// micrograph pixel size as the binning factor.
void rewrite_session_summary(const std::string& dir, const session::OpticsGroup& optics, long long pending);

} // namespace frost::motion_session
