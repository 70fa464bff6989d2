// The program base: exit codes per docs/conventions.md#exit-codes, help/version/describe, and
// no partial output when a run fails.
#include <sys/stat.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "frost/cli/program.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/test/support.hpp"

namespace frost::cli {
namespace {

class Echo : public Program {
public:
  Echo() : Program("frost_echo", "Writes -o and fails on request.") {}
  std::string seen;

protected:
  void define(Params& p) override {
    p.text_required("-o", "output file");
    p.choice("--fail", "none", {"none", "input", "runtime", "device", "std"}, "how to fail after writing");
    p.integer("--knob", 0, "an expert setting").advanced();
    add_device_option(p);
  }
  int run() override {
    AtomicFile f(params().get_text("-o"));
    f.write("data");
    const std::string how = params().get_text("--fail");
    if (how == "input") throw_input_error("in.mrc", "bad header");
    if (how == "runtime") FROST_THROW(ExitCode::Runtime, "boom");
    if (how == "device") FROST_THROW(ExitCode::Device, "no GPU");
    if (how == "std") throw std::runtime_error("std failure");
    f.commit();
    seen = device().to_string();
    return 0;
  }
};

int run_echo(std::vector<std::string> args, Echo* keep = nullptr) {
  Echo local;
  Echo& e = keep ? *keep : local;
  std::vector<const char*> argv{"frost_echo"};
  for (auto& a : args) argv.push_back(a.c_str());
  return e.main(static_cast<int>(argv.size()), argv.data());
}

bool exists(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

TEST(Program, SuccessWritesOutput) {
  test::TempDir d;
  Echo e;
  EXPECT_EQ(run_echo({"-o", d.file("a"), "-v", "0", "--dev", "cpu"}, &e), 0);
  EXPECT_TRUE(exists(d.file("a")));
  EXPECT_EQ(e.seen, "cpu");
}

TEST(Program, ExitCodesFollowTheErrorClass) {
  test::TempDir d;
  EXPECT_EQ(run_echo({"-o", d.file("a"), "--bogus"}), 2);
  EXPECT_EQ(run_echo({}), 2);
  EXPECT_EQ(run_echo({"-o", d.file("a"), "-v", "0", "--fail", "input"}), 3);
  EXPECT_EQ(run_echo({"-o", d.file("a"), "-v", "0", "--fail", "runtime"}), 1);
  EXPECT_EQ(run_echo({"-o", d.file("a"), "-v", "0", "--fail", "device"}), 4);
  EXPECT_EQ(run_echo({"-o", d.file("a"), "-v", "0", "--fail", "std"}), 1);
  EXPECT_EQ(run_echo({"-o", d.file("a"), "-v", "0", "--device", "gpu7x"}), 2);
  // A GPU that does not exist here (or a CPU-only build) is a device error, before any work.
  EXPECT_EQ(run_echo({"-o", d.file("a"), "-v", "0", "--device", "99"}), 4);
  EXPECT_FALSE(exists(d.file("a"))) << "failed runs must leave no output";
}

// Scipion's spelling of several GPUs (`--device 0 1`, docs/conventions.md#device-selection) is the list 0,1;
// only integers are joined, so a stray word after the ids is still a usage error.
TEST(Program, SpaceSeparatedDeviceIdsAreOneList) {
  test::TempDir d;
  testing::internal::CaptureStdout();
  EXPECT_EQ(run_echo({"-o", d.file("a"), "--device", "0", "1", "--validate"}), 0);
  EXPECT_EQ(run_echo({"-o", d.file("a"), "--dev", "0", "1", "2", "-v", "0", "--validate"}), 0);
  testing::internal::GetCapturedStdout();
  EXPECT_EQ(run_echo({"-o", d.file("a"), "-v", "0", "--device", "0", "x", "--validate"}), 2);
  EXPECT_EQ(run_echo({"-o", d.file("a"), "-v", "0", "--device", "cpu", "1", "--validate"}), 2);
  // A real run asks for every GPU of the list: one past the last visible id is a device error
  // (on any machine: no GPU, a CPU build, or several GPUs), and leaves no output.
  const std::string missing = std::to_string(std::max(1, cuda_device_count()));
  EXPECT_EQ(run_echo({"-o", d.file("a"), "-v", "0", "--device", "0", missing}), 4);
  EXPECT_FALSE(exists(d.file("a")));
}

TEST(Program, InformationalOptionsExitZero) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run_echo({"--help"}), 0);
  const std::string help = testing::internal::GetCapturedStdout();
  EXPECT_NE(help.find("Usage: frost_echo"), std::string::npos);
  EXPECT_NE(help.find("--device, --dev"), std::string::npos);

  testing::internal::CaptureStdout();
  EXPECT_EQ(run_echo({"--version"}), 0);
  const std::string version = testing::internal::GetCapturedStdout();
  EXPECT_EQ(version.rfind("frost_echo ", 0), 0u) << version;
  EXPECT_NE(version.find("git "), std::string::npos);

  testing::internal::CaptureStdout();
  EXPECT_EQ(run_echo({"--describe"}), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout().rfind("{\"program\":\"frost_echo\"", 0), 0u);

  EXPECT_EQ(help.find("--knob"), std::string::npos) << "expert options only with --more";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--help", "--more"}, std::vector<std::string>{"--more", "--help"}}) {
    testing::internal::CaptureStdout();
    EXPECT_EQ(run_echo(args), 0);
    const std::string more = testing::internal::GetCapturedStdout();
    EXPECT_NE(more.find("Usage: frost_echo"), std::string::npos) << args[0] << " " << args[1];
    EXPECT_NE(more.find("--knob"), std::string::npos) << args[0] << " " << args[1];
  }

  testing::internal::CaptureStdout();
  EXPECT_EQ(run_echo({"--help", "--fail"}), 0);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("how to fail"), std::string::npos);

  test::TempDir d;
  testing::internal::CaptureStdout();
  EXPECT_EQ(run_echo({"-o", d.file("a"), "--validate"}), 0);
  testing::internal::GetCapturedStdout();
  EXPECT_FALSE(exists(d.file("a")));
}

} // namespace
} // namespace frost::cli
