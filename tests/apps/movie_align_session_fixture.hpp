#pragma once
// Helpers of the live-session tests of frost_movie_align (docs/session.md#tests): tiny simulated
// movies, the session command line, and what a finished session must look like (the journal
// read with SQLite itself, the records, the outputs, no temporaries).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "frost/session/movie_record.hpp"
#include "frost/session/records_file.hpp"
#include "frost/test/files.hpp"
#include "frost/test/program_run.hpp"
#include "frost/test/support.hpp"

namespace frost::session_app_test {

namespace fs = std::filesystem;

/// The options every session test aligns with: global only on the CPU, tiny movies.
inline std::string align_options() { return " --sampling 1 --device cpu --skipLocalAlignment -v 1"; }

inline std::string session_command(const std::string& input, const std::string& dir, const std::string& extra = "") {
  return std::string(FROST_MOVIE_ALIGN_EXE) + " -i '" + input + "' --session " + dir + align_options() + extra;
}

/// Runs a command to its end (at most `timeout_s`), logs to <log>.out/.err.
inline test::Outcome run_to_end(const std::string& command, const std::string& log, double timeout_s = 120) {
  test::Running r = test::start_program(command, log);
  return test::finish_program(r, timeout_s);
}

/// The bytes of one simulated 128 x 128 x 6 movie (trajectory T1), made once per test process,
/// and the micrograph a plain (non-session) run makes of it.
struct TinyMovie {
  std::string bytes, micrograph;
};
inline const TinyMovie& tiny_movie() {
  static const TinyMovie movie = [] {
    static test::TempDir dir;
    TinyMovie m;
    const std::string sim = std::string(FROST_SIMULATE_EXE) +
                            " --mode movie --size 128 128 --frames 6 --trajectory T1 --oroot " + dir.file("tiny");
    const test::Outcome s = run_to_end(sim, dir.file("sim"));
    EXPECT_EQ(s.exit_code, 0) << s.err;
    m.bytes = test::slurp(dir.file("tiny.mrcs"));
    const test::Outcome a = run_to_end(std::string(FROST_MOVIE_ALIGN_EXE) + " -i " + dir.file("tiny.mrcs") +
                                           " --oavg " + dir.file("ref.mrc") + align_options(),
                                       dir.file("ref"));
    EXPECT_EQ(a.exit_code, 0) << a.err;
    m.micrograph = test::slurp(dir.file("ref.mrc"));
    return m;
  }();
  return movie;
}

inline void write_file(const std::string& path, const std::string& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
}

/// Movie name of index i: m000.mrcs, ...
inline std::string movie_name(int i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "m%03d", i);
  return buf;
}

/// path -> state of every row of the session's journal, read with SQLite itself.
inline std::map<std::string, std::string> journal_states(const std::string& dir) {
  std::map<std::string, std::string> states;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2((dir + "/journal.sqlite").c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << "cannot open the journal of " << dir;
    sqlite3_close(db);
    return states;
  }
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT path, state FROM movies", -1, &st, nullptr) == SQLITE_OK)
    while (sqlite3_step(st) == SQLITE_ROW)
      states[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))] =
          reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
  else
    ADD_FAILURE() << sqlite3_errmsg(db);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return states;
}

/// Every file under `root` whose name holds an AtomicFile temporary's tag.
inline std::vector<std::string> temporaries_under(const std::string& root) {
  std::vector<std::string> left;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.path().filename().string().find(".frost-tmp") != std::string::npos) left.push_back(e.path().string());
  return left;
}

/// A finished session of the movies `names` (in `in`, written to `dir`): the journal has one row
/// per movie, each done; the records hold each movie once as done and every line is a record;
/// every micrograph has the bytes of a plain run's; no temporary is left.
inline void expect_complete_session(const std::string& in, const std::string& dir, const std::vector<std::string>& names,
                                    const std::string& context) {
  const auto states = journal_states(dir);
  EXPECT_EQ(states.size(), names.size()) << context;
  for (const std::string& n : names) {
    const auto it = states.find(in + "/" + n + ".mrcs");
    ASSERT_NE(it, states.end()) << context << ": " << n << " not in the journal";
    EXPECT_EQ(it->second, "done") << context << ": " << n;
    EXPECT_EQ(test::slurp(dir + "/micrographs/" + n + ".mrc"), tiny_movie().micrograph)
        << context << ": micrograph of " << n << " differs from a plain run's";
  }
  const session::RecordsRead read = session::read_records(dir + "/records.jsonl");
  EXPECT_EQ(read.malformed, 0) << context;
  EXPECT_EQ(read.records.size(), names.size()) << context;
  for (const session::MovieRecord& r : read.records) EXPECT_TRUE(r.done()) << context << ": " << r.movie;
  const std::vector<std::string> left = temporaries_under(fs::path(dir).parent_path().string());
  EXPECT_TRUE(left.empty()) << context << ": " << left.size() << " temporaries left, e.g. " << left.front();
}

} // namespace frost::session_app_test
