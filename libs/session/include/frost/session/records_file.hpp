#pragma once
/// @file records_file.hpp
/// @brief DIR/records.jsonl: one JSON record per finished or failed movie, appended by every
/// process of the session (docs/session.md#records).
#include <string>
#include <vector>

#include "frost/session/movie_record.hpp"

namespace frost::session {

/// Appends `r` as one line with one write() under an exclusive flock, then fsync: a reader sees
/// whole lines only, and a record survives the process being killed right after.
/// frost::Error(Input) naming the file on failure.
void append_record(const std::string& path, const MovieRecord& r);

struct RecordsRead {
  std::vector<MovieRecord> records; ///< in acquisition order (`order`, then file order)
  int malformed = 0;                ///< lines that were not records (skipped)
  int superseded = 0;               ///< earlier records of a movie that has a later one
};

/// The records of `path`, keeping only the last record of each movie: a movie redone after a
/// crash between its record and the journal's `done` has two. A missing file has none.
RecordsRead read_records(const std::string& path);

} // namespace frost::session
