// frost_movie_align --session (docs/session.md#the-session-loop): every movie once, a rerun that
// does nothing, a movie written slowly that is not read early, failures that stay local and set
// the exit code, records that pass the schema, parameters that cannot change silently, and the
// select subcommand.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <thread>
#include <unistd.h>

#include "frost/io/image_io.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "movie_align_session_fixture.hpp"

namespace frost::session_app_test {
namespace {

double unix_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// The half-sum FRC resolution computed here without frost's FFT: a separable DFT of each
/// (real, square) half, shells of width 1/n cycles per pixel, the first crossing of 0.143 after
/// shell 0 interpolated linearly; 2 px (Nyquist) when it never crosses.
double independent_frc_resolution(const Image<float>& a, const Image<float>& b, double pixel_A) {
  const index_t n = a.shape().x;
  auto dft2 = [n](const Image<float>& img) {
    std::vector<std::complex<double>> rows(static_cast<std::size_t>(n * n)), out(rows.size());
    const double w = -2.0 * 3.14159265358979323846 / static_cast<double>(n);
    for (index_t y = 0; y < n; ++y)
      for (index_t k = 0; k < n; ++k) {
        std::complex<double> s = 0;
        for (index_t x = 0; x < n; ++x) s += static_cast<double>(img(x, y)) * std::polar(1.0, w * double(k * x));
        rows[static_cast<std::size_t>(y * n + k)] = s;
      }
    for (index_t k = 0; k < n; ++k)
      for (index_t l = 0; l < n; ++l) {
        std::complex<double> s = 0;
        for (index_t y = 0; y < n; ++y) s += rows[static_cast<std::size_t>(y * n + k)] * std::polar(1.0, w * double(l * y));
        out[static_cast<std::size_t>(l * n + k)] = s;
      }
    return out;
  };
  const auto fa = dft2(a), fb = dft2(b);
  const index_t shells = n / 2 + 1;
  std::vector<double> num(static_cast<std::size_t>(shells)), da(num.size()), db(num.size());
  for (index_t l = 0; l < n; ++l)
    for (index_t k = 0; k < n; ++k) {
      const double fx = double(k <= n / 2 ? k : k - n), fy = double(l <= n / 2 ? l : l - n);
      const auto s = static_cast<index_t>(std::sqrt(fx * fx + fy * fy) + 0.5);
      if (s >= shells) continue;
      const std::complex<double> va = fa[static_cast<std::size_t>(l * n + k)], vb = fb[static_cast<std::size_t>(l * n + k)];
      num[static_cast<std::size_t>(s)] += (va * std::conj(vb)).real();
      da[static_cast<std::size_t>(s)] += std::norm(va);
      db[static_cast<std::size_t>(s)] += std::norm(vb);
    }
  double previous = 1;
  for (index_t s = 1; s < shells; ++s) {
    const auto i = static_cast<std::size_t>(s);
    const double frc = num[i] / std::sqrt(da[i] * db[i]);
    if (frc < 0.143) {
      const double at = double(s - 1) + (previous - 0.143) / (previous - frc);
      return pixel_A * double(n) / at;
    }
    previous = frc;
  }
  return 2 * pixel_A;
}

class MovieAlignSession : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(tiny_movie().bytes.empty());
    fs::create_directories(in());
  }
  std::string in() const { return dir_.file("in"); }
  std::string session() const { return dir_.file("S"); }
  std::string log(const std::string& name) const { return dir_.file(name); }
  std::vector<std::string> add_movies(int first, int count) {
    std::vector<std::string> names;
    for (int i = first; i < first + count; ++i) {
      names.push_back(movie_name(i));
      write_file(in() + "/" + names.back() + ".mrcs", tiny_movie().bytes);
    }
    return names;
  }
  test::TempDir dir_;
};

TEST_F(MovieAlignSession, EveryMovieOnceAndARerunDoesNothing) {
  const std::vector<std::string> names = add_movies(0, 5);
  const test::Outcome first = run_to_end(session_command(in(), session()), log("run1"));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  expect_complete_session(in(), session(), names, "first run");
  const std::string records = test::slurp(session() + "/records.jsonl");
  const std::string mic = test::slurp(session() + "/micrographs/m000.mrc");

  const test::Outcome again = run_to_end(session_command(in(), session()), log("run2"));
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("0 aligned, 0 failed in this run; 5 done"), std::string::npos) << again.out;
  EXPECT_EQ(test::slurp(session() + "/records.jsonl"), records) << "the rerun appended records";
  EXPECT_EQ(test::slurp(session() + "/micrographs/m000.mrc"), mic);

  // The session's STAR lists every micrograph, and the report shows the count.
  const meta::MetadataFile star = meta::MetadataFile::read(session() + "/micrographs.star");
  ASSERT_NE(star.find("micrographs"), nullptr);
  EXPECT_EQ(star.find("micrographs")->rows(), names.size());
  EXPECT_TRUE(test::exists(session() + "/report.html"));
}

// Records of a real run pass the schema, and their values are those of the movie.
TEST_F(MovieAlignSession, RecordsPassTheSchema) {
  add_movies(0, 2);
  const test::Outcome o = run_to_end(session_command(in(), session()), log("run"));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string text = test::slurp(session() + "/records.jsonl");
  std::size_t lines = 0;
  for (std::size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1, ++lines) {
    session::MovieRecord r;
    ASSERT_NO_THROW(r = session::parse_record_line(text.substr(at, end - at))) << text.substr(at, end - at);
    EXPECT_TRUE(r.done());
    EXPECT_EQ(r.order, static_cast<std::int64_t>(lines + 1)) << "acquisition order";
    EXPECT_EQ(r.frames.value_or(0), 6);
    EXPECT_EQ(r.width.value_or(0), 128);
    EXPECT_DOUBLE_EQ(r.pixel_size_A.value_or(0), 1.0);
    EXPECT_EQ(r.device, "cpu");
    // T1 drifts: the total motion is positive, the largest step no more than the total.
    ASSERT_TRUE(r.accum_motion_total && r.max_frame_shift_A);
    EXPECT_GT(*r.accum_motion_total, 0.5);
    EXPECT_LE(*r.max_frame_shift_A, *r.accum_motion_total + 1e-9);
    // The halves are rendered for the FRC: a resolution between Nyquist and the box.
    ASSERT_TRUE(r.frc_resolution_A.has_value());
    EXPECT_GE(*r.frc_resolution_A, 2.0 - 1e-9);
    EXPECT_LT(*r.frc_resolution_A, 128.0);
    std::vector<std::string> stages;
    for (const auto& s : r.timings_s) stages.push_back(s.first);
    EXPECT_EQ(stages, (std::vector<std::string>{"read", "global", "sum", "quality", "write", "total"}));
    EXPECT_TRUE(test::exists(r.micrograph)) << r.micrograph;
    EXPECT_TRUE(test::exists(r.motion_star)) << r.motion_star;
    EXPECT_LE(r.found_at.value_or(0), r.ready_at.value_or(-1));
  }
  EXPECT_EQ(lines, 2u);
}

// The record's half-sum FRC resolution against one computed here from the halves the same run
// wrote (--ohalves), by a naive DFT: within 10 %. With dose weighting the record has the
// weighting check: weights of a real dose take power away (below 1, beyond noise of 5 %).
TEST_F(MovieAlignSession, HalfSumFrcMatchesAnIndependentComputation) {
  add_movies(0, 1);
  const test::Outcome o = run_to_end(session_command(in(), session(), " --oavg " + session() + "/{movie}.mrc --ohalves " +
                                                     session() + "/{movie} --dose-weight --dose-per-frame 3"),
                                     log("run"));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto records = session::read_records(session() + "/records.jsonl").records;
  ASSERT_EQ(records.size(), 1u);
  ASSERT_TRUE(records[0].frc_resolution_A.has_value());
  const Image<float> even = io::read_image(session() + "/m000_EVN.mrc").image;
  const Image<float> odd = io::read_image(session() + "/m000_ODD.mrc").image;
  const double expected = independent_frc_resolution(even, odd, 1.0);
  std::printf("[frc] record %.3f A, independent %.3f A\n", *records[0].frc_resolution_A, expected);
  EXPECT_GT(expected, 2.0) << "the test movie's halves should cross 0.143 before Nyquist";
  EXPECT_NEAR(*records[0].frc_resolution_A, expected, 0.1 * expected);
  ASSERT_TRUE(records[0].dw_hf_power_ratio.has_value());
  std::printf("[dw] high-frequency power ratio %.4f\n", *records[0].dw_hf_power_ratio);
  EXPECT_GT(*records[0].dw_hf_power_ratio, 0.0);
  EXPECT_LT(*records[0].dw_hf_power_ratio, 1.05);
}

// A truncated and a garbage movie between good ones: both failed with their reason, the others
// done, and the exit code says input error.
TEST_F(MovieAlignSession, ACorruptMovieFailsAloneAndSetsTheExitCode) {
  std::vector<std::string> good = add_movies(0, 2);
  write_file(in() + "/m002.mrcs", tiny_movie().bytes.substr(0, 3000));
  write_file(in() + "/m003.mrcs", std::string(tiny_movie().bytes.size(), 'x'));
  for (const std::string& n : add_movies(4, 2)) good.push_back(n);
  const test::Outcome o = run_to_end(session_command(in(), session()), log("run"));
  EXPECT_EQ(o.exit_code, 3) << o.err;
  const auto states = journal_states(session());
  EXPECT_EQ(states.size(), 6u);
  for (const std::string& n : good) EXPECT_EQ(states.at(in() + "/" + n + ".mrcs"), "done") << n;
  EXPECT_EQ(states.at(in() + "/m002.mrcs"), "failed");
  EXPECT_EQ(states.at(in() + "/m003.mrcs"), "failed");
  for (const session::MovieRecord& r : session::read_records(session() + "/records.jsonl").records) {
    if (r.done()) continue;
    EXPECT_FALSE(r.reason.empty()) << r.movie;
    if (r.movie == in() + "/m002.mrcs") {
      EXPECT_NE(r.reason.find("promises"), std::string::npos) << r.reason;
    }
  }
  EXPECT_NE(test::slurp(session() + "/report.html").find("m002.mrcs"), std::string::npos) << "failure table";
  // The failures stay recorded: a rerun exits with 3 again, --retry-failed tries them again.
  EXPECT_EQ(run_to_end(session_command(in(), session()), log("rerun")).exit_code, 3);
  write_file(in() + "/m002.mrcs", tiny_movie().bytes);
  write_file(in() + "/m003.mrcs", tiny_movie().bytes);
  const test::Outcome retry = run_to_end(session_command(in(), session(), " --retry-failed"), log("retry"));
  EXPECT_EQ(retry.exit_code, 0) << retry.err;
  for (const auto& [path, state] : journal_states(session())) EXPECT_EQ(state, "done") << path;
}

TEST_F(MovieAlignSession, OtherParametersAreRefusedWithoutOverwrite) {
  add_movies(0, 2);
  ASSERT_EQ(run_to_end(session_command(in(), session()), log("run")).exit_code, 0);
  const std::string records = test::slurp(session() + "/records.jsonl");
  const test::Outcome refused = run_to_end(session_command(in(), session(), " --bin 2"), log("refused"));
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--overwrite"), std::string::npos) << refused.err;
  EXPECT_EQ(test::slurp(session() + "/records.jsonl"), records);
  const test::Outcome redo = run_to_end(session_command(in(), session(), " --bin 2 --overwrite"), log("redo"));
  EXPECT_EQ(redo.exit_code, 0) << redo.err;
  const auto read = session::read_records(session() + "/records.jsonl");
  ASSERT_EQ(read.records.size(), 2u);
  EXPECT_EQ(read.superseded, 2);
  // Options that do not change outputs (threads, logging) are not parameters.
  EXPECT_EQ(run_to_end(session_command(in(), session(), " --bin 2 --thr 1 -v 2"), log("same")).exit_code, 0);
}

// The movie is written in 10 chunks over 3 s, closed after each (the watcher sees a close every
// time); only its structure tells that it is not whole. It must be read once, after the last chunk.
TEST_F(MovieAlignSession, AMovieWrittenSlowlyIsReadOnlyWhenComplete) {
  add_movies(0, 1);
  test::Running r = test::start_program(session_command(in(), session(), " --watch --watch-timeout 5"), log("watch"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const std::string& bytes = tiny_movie().bytes;
  const std::string path = in() + "/m001.mrcs";
  const std::size_t chunk = bytes.size() / 10 + 1;
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    std::FILE* f = std::fopen(path.c_str(), at == 0 ? "wb" : "ab");
    ASSERT_NE(f, nullptr);
    const std::size_t n = std::min(chunk, bytes.size() - at);
    ASSERT_EQ(std::fwrite(bytes.data() + at, 1, n, f), n);
    std::fclose(f);
    if (at + chunk < bytes.size()) std::this_thread::sleep_for(std::chrono::milliseconds(330));
  }
  const double complete_at = unix_seconds();
  const test::Outcome o = test::finish_program(r, 60);
  ASSERT_EQ(o.exit_code, 0) << o.status() << "\n" << o.err;
  expect_complete_session(in(), session(), {"m000", "m001"}, "slow writer");
  for (const session::MovieRecord& rec : session::read_records(session() + "/records.jsonl").records) {
    EXPECT_EQ(rec.attempts, 1) << rec.movie;
    if (rec.movie == path) {
      EXPECT_GE(rec.check_at.value_or(0), complete_at - 0.05) << "read before it was complete";
    }
  }
}

TEST_F(MovieAlignSession, SelectWritesTheMoviesThatPass) {
  add_movies(0, 3);
  ASSERT_EQ(run_to_end(session_command(in(), session()), log("run")).exit_code, 0);
  const std::string select = std::string(FROST_MOVIE_ALIGN_EXE) + " select --session " + session();
  const test::Outcome all = run_to_end(select + " --max-total-motion 1000 --min-resolution 1000", log("all"));
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(meta::MetadataFile::read(session() + "/selected_micrographs.star").find("micrographs")->rows(), 3u);
  EXPECT_EQ(meta::MetadataFile::read(session() + "/selected_micrographs.xmd").find("micrographs")->rows(), 3u);
  const test::Outcome none = run_to_end(select + " --max-total-motion 0.01 --ostar " + dir_.file("n.star") +
                                            " --oxmd " + dir_.file("n.xmd"), log("none"));
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("0 kept, 3 refused"), std::string::npos) << none.out;
}

} // namespace
} // namespace frost::session_app_test
