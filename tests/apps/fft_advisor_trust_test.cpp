// frost_fft_advisor and issue 25 ("Trust", class 12): a file that is not a cache export is an
// input error naming the file and its first bad line, and imports nothing; a GPU named by
// --device must exist when the run starts (exit 4, not a silent CPU answer; --validate checks the
// command line only, as in the other programs); wisdom is saved after every plan, so an
// interrupted `wisdom` run keeps what it planned.
#include <sys/wait.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "frost/core/device.hpp"
#include "frost/test/files.hpp"
#include "frost/test/program_run.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

struct Result {
  int code = -1;
  std::string out, err;
};

using test::slurp;

Result advisor(const test::TempDir& d, const std::string& args) {
  const std::string log = d.file("advisor.log");
  const int status =
      std::system((std::string(FROST_FFT_ADVISOR_EXE) + " " + args + " >" + log + ".out 2>" + log + ".err").c_str());
  Result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(log + ".out");
  r.err = slurp(log + ".err");
  return r;
}

TEST(FftAdvisorTrust, ImportingAFileThatIsNotACacheExportIsAnInputError) {
  test::TempDir d;
  const std::string cache = " --cache-dir " + d.file("cache");
  // A real export of one record, to import around the bad lines.
  ASSERT_EQ(advisor(d, "find --size 100 --backend fftw --fftw-effort estimate --reps 2 --top 2 --budget-s 10" + cache)
                .code,
            0);
  ASSERT_EQ(advisor(d, "cache export " + d.file("good.jsonl") + cache).code, 0);
  const std::string good = slurp(d.file("good.jsonl"));
  ASSERT_FALSE(good.empty());
  const std::string before = slurp(d.file("cache/fft-sizes.jsonl"));

  std::ofstream(d.file("garbage.txt")) << "this is not json\n";
  std::ofstream(d.file("mixed.jsonl")) << "\n" << good << "{\"key\": 12}\n";
  std::ofstream(d.file("binary.bin"), std::ios::binary) << std::string("\x01\x02\xff\x00zz\n", 6);
  struct Case {
    std::string file, line;
  };
  for (const Case& c : {Case{"garbage.txt", "line 1 "}, Case{"mixed.jsonl", "line 3 "}, Case{"binary.bin", "line 1 "}}) {
    const std::string before_import = slurp(d.file(c.file));
    const Result r = advisor(d, "cache import " + d.file(c.file) + cache);
    EXPECT_EQ(r.code, 3) << c.file << "\n" << r.err;
    EXPECT_NE(r.err.find(d.file(c.file)), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.line), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("not an fft size cache export"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(d.file("cache/fft-sizes.jsonl")), before) << c.file << ": the cache changed";
    EXPECT_EQ(slurp(d.file(c.file)), before_import);
  }
  // An export (and an empty one) still imports.
  std::ofstream(d.file("empty.jsonl")).flush();
  EXPECT_EQ(advisor(d, "cache import " + d.file("empty.jsonl") + cache).code, 0);
  EXPECT_EQ(advisor(d, "cache import " + d.file("good.jsonl") + " --cache-dir " + d.file("other")).code, 0);
  EXPECT_EQ(slurp(d.file("other/fft-sizes.jsonl")), good);
}

TEST(FftAdvisorTrust, ANamedGpuMustExist) {
  test::TempDir d;
  if (cuda_device_count() == 0) {
    for (const std::string sub : {"find", "benchmark", "recommend"}) {
      const Result r = advisor(d, sub + " --size 100 --device 0 --reps 2 --top 2 --cache-dir " + d.path());
      EXPECT_EQ(r.code, 4) << sub << "\n" << r.err;
      EXPECT_NE(r.err.find("--device 0"), std::string::npos) << r.err;
      EXPECT_EQ(r.out.find("fftw"), std::string::npos) << sub << ": measured on the CPU\n" << r.out;
    }
  }
  const Result huge = advisor(d, "find --size 100 --device 99 --reps 2 --top 2 --cache-dir " + d.path());
  EXPECT_EQ(huge.code, 4) << huge.err;
  EXPECT_NE(huge.err.find("--device 99"), std::string::npos) << huge.err;
  EXPECT_EQ(advisor(d, "recommend --size 100 --device 0 --no-device").code, 2);
  EXPECT_EQ(advisor(d, "find --size 100 --device 0 --backend fftw").code, 2);
  // --validate checks the command line, not the machine, as in the other programs: a GPU command
  // line is valid on a machine without that GPU (the README's GPU examples are checked so in CI).
  const Result valid = advisor(d, "find --size 100 --device 99 --validate --cache-dir " + d.path());
  EXPECT_EQ(valid.code, 0) << valid.err;
  EXPECT_NE(valid.out.find("command line is valid"), std::string::npos) << valid.out;
  EXPECT_EQ(advisor(d, "find --size 100 --device 0 --backend fftw --validate").code, 2);
  // Without --device the CPU answer is still the default there.
  if (cuda_device_count() == 0) {
    EXPECT_EQ(advisor(d, "find --size 100 --reps 2 --top 2 --budget-s 10 --fftw-effort estimate --cache-dir " +
                             d.path())
                  .code,
              0);
  }
}

// The first size is planned and its wisdom saved before the second, long plan starts; SIGINT
// during that plan leaves the saved wisdom (the run used to save only at the end).
TEST(FftAdvisorTrust, AnInterruptedWisdomRunKeepsWhatItPlanned) {
  test::TempDir d;
  test::Running r = test::start_program(std::string(FROST_FFT_ADVISOR_EXE) +
                                            " wisdom --sizes 48x48,4096x4096 --kind r2c --placement out "
                                            "--fftw-effort patient --cache-dir " + d.path(),
                                        d.file("wisdom"));
  bool planned_first = false;
  for (int i = 0; i < 600 && !planned_first && !test::program_ended(r); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    planned_first = slurp(d.file("wisdom.err")).find("planned") != std::string::npos;
  }
  ASSERT_TRUE(planned_first) << slurp(d.file("wisdom.err"));
  ::kill(r.pid, SIGINT);
  const test::Outcome o = test::finish_program(r, 60);
  if (o.exit_code == 0) GTEST_SKIP() << "the 4096x4096 plan finished before the interrupt";
  EXPECT_EQ(o.exit_code, 130) << o.status() << "\n" << o.err;
  std::string wisdom;
  const test::Outcome ls = test::run_program("ls " + d.path(), d.file("ls"), 10);
  for (std::size_t at = ls.out.find("fftw-wisdom-"); at != std::string::npos; at = ls.out.find("fftw-wisdom-", at + 1)) {
    const std::string name = ls.out.substr(at, ls.out.find('\n', at) - at);
    if (name.find(".lock") == std::string::npos && name.find("frost-tmp") == std::string::npos)
      wisdom = slurp(d.file(name));
  }
  EXPECT_NE(wisdom.find("fftwf_wisdom"), std::string::npos) << "no wisdom kept:\n" << wisdom;
  EXPECT_NE(wisdom.find("\n  (fftwf_"), std::string::npos) << "the wisdom kept is empty:\n" << wisdom;
}

} // namespace
} // namespace frost
