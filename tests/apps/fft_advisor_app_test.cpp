// frost_fft_advisor end to end (C7/C9 of docs/fft_advisor.md#cpu-tests): options and reference aliases,
// exit codes, JSON and legacy outputs, find with FFTW and the persistent cache, wisdom.
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "frost/core/device.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

struct Result {
  int code = -1;
  std::string out;
};

Result run(const std::string& args) {
  const std::string cmd = std::string(FROST_FFT_ADVISOR_EXE) + " " + args + " 2>/dev/null";
  Result r;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) r.out.append(buf, n);
  const int status = ::pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(FftAdvisorApp, RecommendWithoutAGpuGivesTheGoldenAnswer) {
  const Result r = run("recommend --size 2273 --no-device --format json --count 3");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("schema"), "frost.fft-advisor/1");
  EXPECT_EQ(j.at("profile").at("name"), "cuda12");
  ASSERT_EQ(j.at("candidates").size(), 3u);
  EXPECT_EQ(j.at("candidates")[0].at("size")[0], 2304); // docs/fft_advisor.md#worked-examples: 2304, 2310, 2352
  EXPECT_EQ(j.at("candidates")[1].at("size")[0], 2310);
  EXPECT_EQ(j.at("candidates")[2].at("size")[0], 2352);
  const Result crop = run("recommend --size 3838x3710 --mode crop --max-change 10 --profile portable --no-device --count 1");
  ASSERT_EQ(crop.code, 0);
  EXPECT_NE(crop.out.find("3780x3600x1"), std::string::npos) << crop.out;
}

TEST(FftAdvisorApp, ReferenceAliasesAndLegacyOutput) {
  const Result r = run("-recommend 3 -x 2273 -n 6 --realOnly --floatOnly --outOfPlaceOnly --batchOnly --no-device "
                       "--forwardOnly --disallowRotation --maxSignalInc 5 --format legacy");
  ASSERT_EQ(r.code, 0) << r.out;
  std::istringstream lines(r.out);
  std::string header, first;
  std::getline(lines, header);
  std::getline(lines, first);
  EXPECT_EQ(header, "rank|placeness|type|data|X|Y|Z|batch");
  EXPECT_EQ(first.rfind("many|out-of-place|R2R ", 0), 0u) << first;
  EXPECT_NE(first.find("|float|2304|1|1|6"), std::string::npos) << first;
  EXPECT_EQ(run("recommend -x 4096 -y 4096 --crop --maxSignalInc 10 --squareOnly --no-device --count 1").code, 0);
  EXPECT_EQ(run("recommend -x 4096 --disallowSizeOptimization --no-device --count 1").code, 0);
}

TEST(FftAdvisorApp, EveryOptionParses) {
  const Result r = run("recommend --size 1000x900x1 --signals 4 --precision both --kind any --direction both "
                       "--placement both --batched both --mode pad --max-change 20 --optimize-dims 2 --parity even,any "
                       "--allow-rotation --max-mem 4096 --plan-mem-model paper --profile cuda8 --window 30 "
                       "--tie-break elements --count 5 --top 7 --reps 3 --warmup 1 --cache-state warm --budget-s 5 "
                       "--lock-wait-s 1 --threads 1 --fftw-effort exhaustive --seed 7 --format table --no-cache "
                       "--refresh -q --no-device");
  EXPECT_EQ(r.code, 0) << r.out;
}

TEST(FftAdvisorApp, ExitCodes) {
  EXPECT_EQ(run("--help").code, 0);
  EXPECT_EQ(run("--describe").code, 0);
  EXPECT_EQ(run("recommend --size 100 --bogus --no-device").code, 2);
  EXPECT_EQ(run("recommend --size 100x100 --square-only --allow-transposition --no-device").code, 2);
  EXPECT_EQ(run("recommend --no-device").code, 2);              // no size
  EXPECT_EQ(run("--size 100 --no-device").code, 2);             // no subcommand
  EXPECT_EQ(run("recommend --size 0x5 --no-device").code, 2);   // non-positive size
  EXPECT_EQ(run("find --size 100 --no-device").code, 2);        // find measures
  // No configuration fits one signal in 1 MiB at this size: exit 1
  // (docs/fft_advisor.md#outputs-and-exit-codes).
  EXPECT_EQ(run("recommend --size 4096x4096 --max-mem 1 --no-device").code, 1);
  if (cuda_device_count() == 0) {
    EXPECT_EQ(run("recommend --size 100 --backend cuda").code, 4); // no GPU: a device error
  }
}

TEST(FftAdvisorApp, FindWithFftwMeasuresAndCaches) {
  test::TempDir d;
  const std::string common = "--size 1000 --signals 4 --backend fftw --fftw-effort estimate --reps 3 --top 5 "
                             "--budget-s 20 --format json --cache-dir " + d.path();
  const Result first = run("find " + common);
  ASSERT_EQ(first.code, 0) << first.out;
  const auto j = nlohmann::json::parse(first.out);
  EXPECT_EQ(j.at("source"), "measured");
  EXPECT_EQ(j.at("backend").at("kind"), "fftw");
  EXPECT_FALSE(j.at("original").at("ms_per_signal").is_null());
  ASSERT_GE(j.at("candidates").size(), 2u);
  for (const auto& c : j.at("candidates")) {
    EXPECT_EQ(c.at("status"), "ok");
    EXPECT_GT(c.at("ms_per_signal").at("median").get<double>(), 0.0);
    EXPECT_GE(c.at("size")[0].get<int>(), 1000);
    EXPECT_LE(c.at("size")[0].get<int>(), 1024); // pad window: up to the power of two
  }
  const Result second = run("find " + common);
  ASSERT_EQ(second.code, 0);
  EXPECT_EQ(nlohmann::json::parse(second.out).at("source"), "cache");
  const Result list = run("cache list --cache-dir " + d.path());
  EXPECT_EQ(list.code, 0);
  EXPECT_NE(list.out.find("1 record"), std::string::npos) << list.out;
  EXPECT_EQ(run("cache clear --cache-dir " + d.path()).code, 0);
  EXPECT_EQ(nlohmann::json::parse(run("find " + common).out).at("source"), "measured");
  EXPECT_EQ(run("cache frobnicate --cache-dir " + d.path()).code, 2);
}

TEST(FftAdvisorApp, WisdomIsSavedForThisMachine) {
  test::TempDir d;
  const Result r = run("wisdom --sizes 64x64,96x80 --kind real --fftw-effort measure --cache-dir " + d.path());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("4 plan(s); wisdom saved to " + d.path() + "/fftw-wisdom-"), std::string::npos) << r.out;
  EXPECT_EQ(run("wisdom --sizes 64x64 --fftw-effort estimate --cache-dir " + d.path()).code, 2);
}

} // namespace
} // namespace frost
