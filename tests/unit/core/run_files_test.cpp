// The files of a run are checked before any work: an output never names an input or another
// output (through links and relative paths too), inputs exist, output folders can be written.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/core/run_files.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

/// Runs the rest of a test in another working directory.
class CurrentDir {
public:
  explicit CurrentDir(const std::string& dir) : previous_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~CurrentDir() { std::filesystem::current_path(previous_); }

private:
  std::filesystem::path previous_;
};

/// The exit class and message of check_run_files on `files`, or Ok.
std::pair<ExitCode, std::string> check(const RunFiles& files, bool make_folders = true) {
  try {
    check_run_files(files, make_folders);
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  return {ExitCode::Ok, ""};
}

TEST(RunFiles, AnOutputNamingAnInputIsAUsageError) {
  test::TempDir dir;
  const std::string movie = dir.file("movie.mrcs");
  write_text_file_atomic(movie, "raw frames");
  RunFiles f;
  f.input("-i", movie);
  f.output("--oavg", movie);
  const auto [code, message] = check(f);
  EXPECT_EQ(code, ExitCode::Usage);
  EXPECT_NE(message.find("--oavg"), std::string::npos) << message;
  EXPECT_NE(message.find("an input is never overwritten"), std::string::npos) << message;
  EXPECT_EQ(read_text_file(movie), "raw frames");
}

TEST(RunFiles, LinksRelativePathsAndHardLinksAreTheSameFile) {
  test::TempDir dir;
  const std::string gain = dir.file("gain.mrc");
  write_text_file_atomic(gain, "gain");
  ASSERT_EQ(::symlink(gain.c_str(), dir.file("gain_link.mrc").c_str()), 0);
  ASSERT_EQ(::link(gain.c_str(), dir.file("gain_hard.mrc").c_str()), 0);
  std::filesystem::create_directories(dir.file("sub"));
  const CurrentDir cwd(dir.file("sub"));
  for (const std::string& out : {dir.file("gain_link.mrc"), dir.file("gain_hard.mrc"), std::string("../gain.mrc"),
                                dir.file("sub/../gain.mrc")}) {
    RunFiles f;
    f.input("--gain", gain);
    f.output("-o", out);
    EXPECT_EQ(check(f).first, ExitCode::Usage) << out;
  }
}

TEST(RunFiles, TwoOutputsOfOneNameAreAUsageErrorEvenBeforeTheyExist) {
  test::TempDir dir;
  RunFiles f;
  f.output("--oavg", dir.file("out/m.mrc"));
  f.output("-o", dir.file("out/./m.mrc"));
  const auto [code, message] = check(f, false);
  EXPECT_EQ(code, ExitCode::Usage);
  EXPECT_NE(message.find("every output needs its own name"), std::string::npos) << message;
}

TEST(RunFiles, ARefusedRunMakesNoFolder) {
  test::TempDir dir;
  const std::string gain = dir.file("gain.mrc");
  write_text_file_atomic(gain, "gain");
  RunFiles f;
  f.output("--oavg", dir.file("new/mic.mrc"));
  f.output("--gain-copy", gain);
  f.input("--gain", gain);
  EXPECT_EQ(check(f).first, ExitCode::Usage);
  EXPECT_FALSE(std::filesystem::exists(dir.file("new")));
}

TEST(RunFiles, AMissingInputIsAnInputErrorNamingIt) {
  test::TempDir dir;
  RunFiles f;
  f.input("--reference", dir.file("absent.mrc"));
  const auto [code, message] = check(f);
  EXPECT_EQ(code, ExitCode::Input);
  EXPECT_NE(message.find("absent.mrc"), std::string::npos) << message;
  EXPECT_NE(message.find("--reference"), std::string::npos) << message;
}

TEST(RunFiles, MissingOutputFoldersAreMadeByARunAndOnlyCheckedByValidate) {
  test::TempDir dir;
  RunFiles f;
  f.output("-o", dir.file("maps/run1/map.mrc"));
  EXPECT_EQ(check(f, false).first, ExitCode::Ok);
  EXPECT_FALSE(std::filesystem::exists(dir.file("maps")));
  EXPECT_EQ(check(f, true).first, ExitCode::Ok);
  EXPECT_TRUE(std::filesystem::is_directory(dir.file("maps/run1")));
}

TEST(RunFiles, AnOutputThatIsAFolderOrUnderAFileIsRefused) {
  test::TempDir dir;
  write_text_file_atomic(dir.file("plain"), "x");
  RunFiles folder;
  folder.output("-o", dir.path());
  EXPECT_EQ(check(folder).first, ExitCode::Usage);
  RunFiles under_file;
  under_file.output("-o", dir.file("plain/map.mrc"));
  EXPECT_EQ(check(under_file).first, ExitCode::Input);
}

TEST(RunFiles, AReadOnlyOutputFolderIsAnInputErrorBeforeAnyWork) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: folder permissions do not apply";
  test::TempDir dir;
  std::filesystem::create_directories(dir.file("ro"));
  ::chmod(dir.file("ro").c_str(), 0555);
  RunFiles f;
  f.output("--oavg", dir.file("ro/m.mrc"));
  EXPECT_EQ(check(f).first, ExitCode::Input);
  ::chmod(dir.file("ro").c_str(), 0755);
}

TEST(RunFiles, SameFileComparesIdentityNotSpelling) {
  test::TempDir dir;
  write_text_file_atomic(dir.file("a"), "a");
  write_text_file_atomic(dir.file("b"), "a");
  EXPECT_TRUE(same_file(dir.file("a"), dir.file("./a")));
  EXPECT_FALSE(same_file(dir.file("a"), dir.file("b")));
  EXPECT_FALSE(same_file(dir.file("a"), dir.file("c")));
}

} // namespace
} // namespace frost
