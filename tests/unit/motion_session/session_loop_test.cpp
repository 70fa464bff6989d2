// run_session() with a stand-in ProcessMovie (docs/session.md#the-session-loop): several worker
// threads claim from one journal and never run a movie twice; a failing movie is recorded with its
// reason and sets the exit code while the others finish; a second run does nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "frost/core/error.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/motion_session/session_loop.hpp"
#include "frost/session/journal.hpp"
#include "frost/session/records_file.hpp"
#include "frost/test/support.hpp"

namespace frost::motion_session {
namespace {

/// Files the loop takes as movies: a name the completeness check does not know is complete.
void write_stand_in_movies(const std::string& folder, int count) {
  for (int i = 0; i < count; ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "%s/movie%03d.dat", folder.c_str(), i);
    std::FILE* f = std::fopen(name, "wb");
    ASSERT_NE(f, nullptr) << name;
    std::fputs("stand-in movie\n", f);
    std::fclose(f);
  }
}

SessionSettings stand_in_settings(const test::TempDir& dir, int workers) {
  SessionSettings s;
  s.input = dir.file("in");
  s.dir = dir.file("S");
  s.parameter_hash = "0123456789abcdef";
  s.devices.clear();
  for (int w = 0; w < workers; ++w) s.devices.push_back("cuda:" + std::to_string(w));
  return s;
}

TEST(SessionLoop, WorkersNeverRunAMovieTwice) {
  test::TempDir dir;
  std::filesystem::create_directories(dir.file("in"));
  write_stand_in_movies(dir.file("in"), 40);
  std::mutex m;
  std::map<std::string, int> runs;
  std::set<int> workers_used;
  const ProcessMovie process = [&](int worker, const std::string& movie, const std::string&,
                                   session::MovieRecord&) -> FinishMovie {
    {
      std::lock_guard<std::mutex> lock(m);
      ++runs[movie];
      workers_used.insert(worker);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return {};
  };
  const SessionResult r = run_session(stand_in_settings(dir, 4), process);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.done, 40);
  EXPECT_EQ(r.journal_done, 40);
  ASSERT_EQ(runs.size(), 40u);
  for (const auto& [movie, n] : runs) EXPECT_EQ(n, 1) << movie;
  EXPECT_GE(workers_used.size(), 2u) << "one worker took every movie";
  const session::RecordsRead read = session::read_records(records_path(dir.file("S")));
  ASSERT_EQ(read.records.size(), 40u);
  EXPECT_EQ(read.superseded, 0);
  std::set<std::string> devices;
  for (const session::MovieRecord& rec : read.records) {
    EXPECT_TRUE(rec.done()) << rec.movie;
    devices.insert(rec.device);
  }
  EXPECT_EQ(devices.size(), workers_used.size());

  // Again: every movie is done, nothing runs.
  runs.clear();
  const SessionResult again = run_session(stand_in_settings(dir, 4), process);
  EXPECT_EQ(again.done, 0);
  EXPECT_TRUE(runs.empty());
  EXPECT_EQ(again.journal_done, 40);
}

TEST(SessionLoop, AFailingMovieIsRecordedAndTheOthersFinish) {
  test::TempDir dir;
  std::filesystem::create_directories(dir.file("in"));
  write_stand_in_movies(dir.file("in"), 6);
  const ProcessMovie process = [&](int, const std::string& movie, const std::string&, session::MovieRecord&) -> FinishMovie {
    if (movie.find("movie003") != std::string::npos) throw Error(ExitCode::Device, "the stand-in device failed");
    return {};
  };
  const SessionResult r = run_session(stand_in_settings(dir, 2), process);
  EXPECT_EQ(r.exit_code, static_cast<int>(ExitCode::Device));
  EXPECT_EQ(r.done, 5);
  EXPECT_EQ(r.failed, 1);
  for (const session::MovieRecord& rec : session::read_records(records_path(dir.file("S"))).records) {
    if (rec.movie.find("movie003") == std::string::npos) {
      EXPECT_TRUE(rec.done()) << rec.movie;
    } else {
      EXPECT_EQ(rec.status, "failed");
      EXPECT_NE(rec.reason.find("stand-in device failed"), std::string::npos) << rec.reason;
    }
  }
  // A later run that aligns nothing still says that the session holds a failure.
  EXPECT_EQ(run_session(stand_in_settings(dir, 2), process).exit_code, static_cast<int>(ExitCode::Input));
}

// Claim ahead (docs/session.md#loading-ahead-and-writing-behind): each worker is told the movie
// it will do next, which is then the next movie it is given; every movie still runs once, and a rerun does nothing.
TEST(SessionLoop, ClaimAheadNamesTheWorkersNextMovie) {
  test::TempDir dir;
  std::filesystem::create_directories(dir.file("in"));
  write_stand_in_movies(dir.file("in"), 30);
  std::mutex m;
  std::map<std::string, int> runs;
  std::map<int, std::string> promised; // worker -> the `next` it was given last
  int kept = 0, hinted = 0;
  const ProcessMovie process = [&](int worker, const std::string& movie, const std::string& next,
                                   session::MovieRecord&) -> FinishMovie {
    {
      std::lock_guard<std::mutex> lock(m);
      ++runs[movie];
      auto p = promised.find(worker);
      if (p != promised.end() && !p->second.empty()) {
        EXPECT_EQ(p->second, movie) << "worker " << worker << " was promised another movie";
        ++kept;
      }
      promised[worker] = next;
      hinted += !next.empty();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    return {};
  };
  SessionSettings s = stand_in_settings(dir, 3);
  s.claim_ahead = true;
  const SessionResult r = run_session(s, process);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.journal_done, 30);
  ASSERT_EQ(runs.size(), 30u);
  for (const auto& [movie, n] : runs) EXPECT_EQ(n, 1) << movie;
  EXPECT_EQ(kept, hinted);
  EXPECT_GE(hinted, 24) << "30 movies over 3 workers: all but each worker's last are named ahead";
  runs.clear();
  EXPECT_EQ(run_session(s, process).done, 0);
  EXPECT_TRUE(runs.empty());
}

// Write behind (docs/session.md#loading-ahead-and-writing-behind): the FinishMovie of a movie runs
// on another thread while the worker aligns its next one, one movie at a time per worker; a
// FinishMovie that throws fails its movie only; every record and journal row is there at the end.
TEST(SessionLoop, WriteBehindFinishesEveryMovieOnceAndOverlaps) {
  test::TempDir dir;
  std::filesystem::create_directories(dir.file("in"));
  write_stand_in_movies(dir.file("in"), 16);
  std::mutex m;
  std::map<std::string, int> aligned, written;
  std::atomic<int> writing{0}, overlapped{0};
  std::set<std::thread::id> finish_threads;
  const std::thread::id caller = std::this_thread::get_id();
  const ProcessMovie process = [&](int, const std::string& movie, const std::string&,
                                   session::MovieRecord&) -> FinishMovie {
    {
      std::lock_guard<std::mutex> lock(m);
      ++aligned[movie];
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(4));
    if (writing.load() > 0) ++overlapped; // this worker's previous movie is being written meanwhile
    return [&, movie](session::MovieRecord& r) {
      ++writing;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      {
        std::lock_guard<std::mutex> lock(m);
        ++written[movie];
        finish_threads.insert(std::this_thread::get_id());
      }
      r.micrograph = movie + ".mrc";
      --writing;
      if (movie.find("movie007") != std::string::npos) throw Error(ExitCode::Input, "the stand-in writer failed");
    };
  };
  SessionSettings s = stand_in_settings(dir, 1);
  s.write_behind = true;
  const SessionResult r = run_session(s, process);
  EXPECT_EQ(r.exit_code, static_cast<int>(ExitCode::Input));
  EXPECT_EQ(r.done, 15);
  EXPECT_EQ(r.failed, 1);
  ASSERT_EQ(aligned.size(), 16u);
  ASSERT_EQ(written.size(), 16u);
  for (const auto& [movie, n] : written) EXPECT_EQ(n, 1) << movie;
  EXPECT_EQ(finish_threads.count(caller), 0u);
  EXPECT_GT(overlapped.load(), 0) << "no movie aligned while another was written";
  const session::RecordsRead read = session::read_records(records_path(dir.file("S")));
  ASSERT_EQ(read.records.size(), 16u);
  for (const session::MovieRecord& rec : read.records) {
    if (rec.movie.find("movie007") != std::string::npos) {
      EXPECT_EQ(rec.status, "failed");
      EXPECT_NE(rec.reason.find("stand-in writer failed"), std::string::npos) << rec.reason;
    } else {
      EXPECT_TRUE(rec.done()) << rec.movie;
      EXPECT_EQ(rec.micrograph, rec.movie + ".mrc");
    }
  }
}

// Without --sampling the optics table takes the movies' pixel size from the records
// (docs/session.md#micrographs-star), binned by the factor the group carries.
TEST(SessionLoop, OpticsWithoutAPixelSizeTakeTheRecordsOne) {
  test::TempDir dir;
  std::filesystem::create_directories(dir.file("S"));
  session::MovieRecord r;
  r.movie = "/data/m1.tif";
  r.status = "done";
  r.pixel_size_A = 0.83;
  r.micrograph = dir.file("m1.mrc");
  session::append_record(records_path(dir.file("S")), r);
  session::OpticsGroup optics;
  optics.original_pixel_size_A = 0;  // not given
  optics.micrograph_pixel_size_A = 2; // --bin 2
  rewrite_session_summary(dir.file("S"), optics, 0);
  const meta::MetadataFile star = meta::MetadataFile::read(micrographs_star_path(dir.file("S")));
  const meta::Block& o = star.block("optics");
  EXPECT_DOUBLE_EQ(o.get_double("rlnMicrographOriginalPixelSize"), 0.83);
  EXPECT_DOUBLE_EQ(o.get_double("rlnMicrographPixelSize"), 1.66);
}

} // namespace
} // namespace frost::motion_session
