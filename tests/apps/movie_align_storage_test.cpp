// --storage (docs/movie_align.md#command-line; docs/formats.md#reference-command-lines): the command
// line Scipion's FlexAlign protocol writes, with --storage <extra>/fftBenchmark.txt, is accepted;
// the FFT cache (FFTW wisdom) goes to <extra>/frost-cache and nothing is written at the file name
// itself; a later run loads it; a directory (or $FROST_STORAGE) is used as the cache itself.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>

#include "frost/test/support.hpp"
#include "movie_align_cli.hpp"

namespace frost {
namespace {

using namespace movie_align_test;

int wisdom_files(const std::string& dir) {
  int n = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    n += name.rfind("fftw-wisdom-", 0) == 0 && name.size() > 8 && name.substr(name.size() - 8) == "-f32.txt";
  }
  return n;
}

TEST(MovieAlignStorage, ScipionCommandLineKeepsTheCacheBesideTheBenchmarkFile) {
  test::TempDir dir;
  ASSERT_EQ(simulate("--mode movie --size 256 256 --frames 6 --dose 4 --oroot " + dir.file("m")), 0);
  std::filesystem::create_directories(dir.file("extra"));
  const std::string extra = dir.file("extra");
  // protocol_flexalign.py, GPU form (here on the CPU: global alignment only).
  const std::string scipion = "-i " + dir.file("m.mrcs") + " -o " + extra + "/m_shifts.xmd --sampling 1.0 "
                              "--maxResForCorrelation 30 --frameRange 0 5 --frameRangeSum 0 5 --maxShift 50 --oavg " +
                              extra + "/m.mrc --skipLocalAlignment --minLocalRes 500 --device cpu --storage " + extra +
                              "/fftBenchmark.txt --controlPoints 6 6 5 --patchesAvg 3";
  ASSERT_EQ(align(scipion, dir.file("first.log")), 0) << read_text(dir.file("first.log"));
  EXPECT_EQ(wisdom_files(extra + "/frost-cache"), 1);
  struct stat st {};
  EXPECT_NE(::stat((extra + "/fftBenchmark.txt").c_str(), &st), 0) << "nothing is written at the file name";
  EXPECT_NE(read_text(dir.file("first.log")).find("--storage: FFT cache " + extra + "/frost-cache"), std::string::npos);
  ASSERT_EQ(align(scipion, dir.file("second.log")), 0);
  EXPECT_NE(read_text(dir.file("second.log")).find("(FFTW wisdom loaded)"), std::string::npos)
      << read_text(dir.file("second.log"));

  // A directory is the cache itself; so is $FROST_STORAGE when --storage is not given.
  std::filesystem::create_directories(dir.file("cache"));
  ASSERT_EQ(align("-i " + dir.file("m.mrcs") + " --skipLocalAlignment --device cpu -o " + dir.file("a.star") +
                  " --storage " + dir.file("cache")),
            0);
  EXPECT_EQ(wisdom_files(dir.file("cache")), 1);
  ASSERT_EQ(run("FROST_STORAGE=" + dir.file("env") + "/ " + FROST_MOVIE_ALIGN_EXE + " -i " + dir.file("m.mrcs") +
                " --skipLocalAlignment --device cpu -o " + dir.file("b.star")),
            0);
  EXPECT_EQ(wisdom_files(dir.file("env")), 1);
}

} // namespace
} // namespace frost
