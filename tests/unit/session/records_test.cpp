// records.jsonl: the schema frost.movie-record/1 and appends from several processes
// (docs/session.md#records).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <vector>

#include "frost/session/records_file.hpp"
#include "frost/test/files.hpp"
#include "frost/test/support.hpp"

namespace frost::session {
namespace {

MovieRecord sample_record(const std::string& movie, std::int64_t order) {
  MovieRecord r;
  r.movie = movie;
  r.order = order;
  r.device = "cuda:0";
  r.frames = 40;
  r.pixel_size_A = 0.83;
  r.dose_per_frame = 1.25;
  r.micrograph = "Micrographs/" + movie + ".mrc";
  r.timings_s = {{"read", 0.05}, {"global", 0.02}};
  r.accum_motion_total = 14.5;
  r.accum_motion_early = 2.4;
  r.accum_motion_late = 12.1;
  r.frc_resolution_A = 3.9;
  return r;
}

TEST(SessionRecords, RoundTripKeepsEveryFieldAndWritesNullForUnknown) {
  const MovieRecord r = sample_record("m1.tiff", 7);
  const auto j = to_json(r);
  EXPECT_EQ(j["schema"], "frost.movie-record/1");
  EXPECT_TRUE(j["local_fit_rmsd_A"].is_null());
  EXPECT_TRUE(j["reason"].is_null());
  EXPECT_EQ(j.begin().key(), "schema") << "documented field order";
  const MovieRecord back = parse_record_line(to_json_line(r));
  EXPECT_EQ(back.movie, "m1.tiff");
  EXPECT_EQ(back.order, 7);
  EXPECT_EQ(*back.frames, 40);
  EXPECT_DOUBLE_EQ(*back.accum_motion_late, 12.1);
  EXPECT_FALSE(back.local_fit_rmsd_A);
  ASSERT_EQ(back.timings_s.size(), 2u);
  EXPECT_EQ(back.timings_s[1].first, "global");
  EXPECT_EQ(to_json_line(back), to_json_line(r));
}

TEST(SessionRecords, SchemaViolationsAreRefused) {
  auto j = nlohmann::ordered_json::parse(to_json_line(sample_record("m", 1)));
  auto refused = [](const nlohmann::ordered_json& bad) {
    try {
      record_from_json(bad);
    } catch (const std::runtime_error&) {
      return true;
    }
    return false;
  };
  EXPECT_FALSE(refused(j));
  auto wrong_schema = j;
  wrong_schema["schema"] = "frost.movie-record/2";
  EXPECT_TRUE(refused(wrong_schema));
  auto failed_without_reason = j;
  failed_without_reason["status"] = "failed";
  EXPECT_TRUE(refused(failed_without_reason));
  auto odd_status = j;
  odd_status["status"] = "running";
  EXPECT_TRUE(refused(odd_status));
  auto text_for_number = j;
  text_for_number["frames"] = "40";
  EXPECT_TRUE(refused(text_for_number));
  auto no_movie = j;
  no_movie.erase("movie");
  EXPECT_TRUE(refused(no_movie));
}

TEST(SessionRecords, ProcessesAppendWholeLines) {
  test::TempDir dir;
  const std::string path = dir.file("records.jsonl");
  constexpr int kProcesses = 4, kEach = 25;
  std::vector<pid_t> kids;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      for (int i = 0; i < kEach; ++i) {
        MovieRecord r = sample_record("p" + std::to_string(p) + "_" + std::to_string(i), p * kEach + i);
        r.fallback_reason = std::string(2000, 'x'); // long lines make interleaving visible
        append_record(path, r);
      }
      ::_exit(0);
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) ::waitpid(pid, nullptr, 0);
  const RecordsRead read = read_records(path);
  EXPECT_EQ(read.malformed, 0);
  ASSERT_EQ(read.records.size(), static_cast<std::size_t>(kProcesses * kEach));
  for (std::size_t i = 0; i < read.records.size(); ++i) EXPECT_EQ(read.records[i].order, static_cast<std::int64_t>(i));
}

TEST(SessionRecords, LastRecordOfAMovieWinsAndBrokenLinesAreSkipped) {
  test::TempDir dir;
  const std::string path = dir.file("records.jsonl");
  MovieRecord first = sample_record("redone.tiff", 2);
  first.status = "failed";
  first.reason = "interrupted";
  append_record(path, first);
  append_record(path, sample_record("other.tiff", 1));
  append_record(path, sample_record("redone.tiff", 2));
  std::ofstream(path, std::ios::app) << "{\"schema\": \"frost.movie-record/1\", \"mov"; // cut by a full disk
  const RecordsRead read = read_records(path);
  EXPECT_EQ(read.malformed, 1);
  EXPECT_EQ(read.superseded, 1);
  ASSERT_EQ(read.records.size(), 2u);
  EXPECT_EQ(read.records[0].movie, "other.tiff") << "acquisition order";
  EXPECT_EQ(read.records[1].status, "done");
  EXPECT_TRUE(read_records(dir.file("absent.jsonl")).records.empty());
}

} // namespace
} // namespace frost::session
