// The program base checks the files of a run before any work: an output that names an input or
// another output is a usage error (also under --validate), a missing input is an input error,
// missing output folders are made; bad numbers (nan, inf, thread counts) are usage errors.
#include <sys/stat.h>

#include <filesystem>

#include "frost/cli/program.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/test/support.hpp"

namespace frost::cli {
namespace {

/// Reads -i, writes -o and --extra; counts its runs.
class Copy : public Program {
public:
  Copy() : Program("frost_copy", "Copies -i to -o.") {}
  int runs = 0;

protected:
  void define(Params& p) override {
    p.text_required("-i", "input").input_file();
    p.text_required("-o", "output").output_file();
    p.text_optional("--extra", "a second output").output_file();
    p.real("--scale", 1.0, "a real option");
  }
  void add_run_files(RunFiles& files) const override {
    files.output("the log beside -o", params().get_text("-o") + ".log");
  }
  int run() override {
    ++runs;
    write_text_file_atomic(params().get_text("-o"), read_text_file(params().get_text("-i")));
    return 0;
  }
};

int run_copy(Copy& c, std::vector<std::string> args) {
  std::vector<const char*> argv{"frost_copy"};
  for (auto& a : args) argv.push_back(a.c_str());
  return c.main(static_cast<int>(argv.size()), argv.data());
}

TEST(ProgramFiles, AnOutputNamingAnInputStopsBeforeAnyWork) {
  test::TempDir d;
  const std::string in = d.file("movie.mrcs");
  write_text_file_atomic(in, "raw");
  for (bool validate : {false, true}) {
    Copy c;
    std::vector<std::string> args{"-i", in, "-o", d.file("./movie.mrcs"), "-v", "0"};
    if (validate) args.push_back("--validate");
    testing::internal::CaptureStderr();
    EXPECT_EQ(run_copy(c, args), 2);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("an input is never overwritten"), std::string::npos) << err;
    EXPECT_EQ(c.runs, 0);
    EXPECT_EQ(read_text_file(in), "raw");
  }
}

TEST(ProgramFiles, TwoOutputsOfOneNameAndDerivedOutputsAreChecked) {
  test::TempDir d;
  const std::string in = d.file("in.txt");
  write_text_file_atomic(in, "x");
  Copy same;
  EXPECT_EQ(run_copy(same, {"-i", in, "-o", d.file("a"), "--extra", d.file("a"), "-v", "0"}), 2);
  write_text_file_atomic(d.file("b.log"), "keep");
  Copy derived;
  // -o b makes b.log an output; --extra b.log is the same file.
  EXPECT_EQ(run_copy(derived, {"-i", in, "-o", d.file("b"), "--extra", d.file("b.log"), "-v", "0"}), 2);
  EXPECT_EQ(derived.runs, 0);
}

TEST(ProgramFiles, AMissingInputIsAnInputErrorAndMissingFoldersAreMade) {
  test::TempDir d;
  Copy missing;
  EXPECT_EQ(run_copy(missing, {"-i", d.file("absent"), "-o", d.file("out"), "-v", "0"}), 3);
  EXPECT_EQ(missing.runs, 0);
  write_text_file_atomic(d.file("in"), "y");
  Copy nested;
  EXPECT_EQ(run_copy(nested, {"-i", d.file("in"), "-o", d.file("new/dir/out"), "-v", "0"}), 0);
  EXPECT_EQ(read_text_file(d.file("new/dir/out")), "y");
}

TEST(ProgramFiles, TheLogFileIsAnOutputAndItsFolderIsMade) {
  test::TempDir d;
  write_text_file_atomic(d.file("in"), "z");
  Copy onto_input;
  EXPECT_EQ(run_copy(onto_input, {"-i", d.file("in"), "-o", d.file("out"), "--log", d.file("in")}), 2);
  EXPECT_EQ(read_text_file(d.file("in")), "z");
  Copy logged;
  EXPECT_EQ(run_copy(logged, {"-i", d.file("in"), "-o", d.file("out"), "--log", d.file("logs/run.log")}), 0);
  EXPECT_NE(read_text_file(d.file("logs/run.log")).find("frost_copy"), std::string::npos);
}

TEST(ProgramFiles, NonFiniteNumbersAndHugeThreadCountsAreUsageErrors) {
  test::TempDir d;
  write_text_file_atomic(d.file("in"), "z");
  for (const char* bad : {"nan", "inf", "-inf", "1e999"}) {
    Copy c;
    EXPECT_EQ(run_copy(c, {"-i", d.file("in"), "-o", d.file("out"), "--scale", bad, "-v", "0"}), 2) << bad;
    EXPECT_EQ(c.runs, 0);
  }
  Copy threads;
  EXPECT_EQ(run_copy(threads, {"-i", d.file("in"), "-o", d.file("out"), "--thr", "100000", "-v", "0"}), 2);
  EXPECT_EQ(threads.runs, 0);
}

TEST(ProgramFiles, ControlBytesInAMessageAreEscaped) {
  test::TempDir d;
  Copy c;
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_copy(c, {"-i", d.file("in"), "-o", d.file("out"), std::string("--bogus\x1b[2J\x07")}), 2);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.find('\x1b'), std::string::npos) << err;
  EXPECT_NE(err.find("\\x1b[2J\\x07"), std::string::npos) << err;
}

} // namespace
} // namespace frost::cli
