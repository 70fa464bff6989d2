// --device parsing: the spellings Scipion and users pass, and clear usage errors.
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

TEST(DeviceSelection, ParsesCpuAndGpuLists) {
  EXPECT_TRUE(DeviceSelection::parse("cpu").cpu);
  EXPECT_TRUE(DeviceSelection::parse("CPU").cpu);
  const auto one = DeviceSelection::parse("0");
  EXPECT_FALSE(one.cpu);
  EXPECT_EQ(one.gpus, std::vector<int>{0});
  EXPECT_EQ(DeviceSelection::parse("0,1").gpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(DeviceSelection::parse("2 3").gpus, (std::vector<int>{2, 3})); // Scipion's %(GPU)s
  EXPECT_EQ(DeviceSelection::parse("cuda").gpus, std::vector<int>{0});
  EXPECT_EQ(DeviceSelection::parse("0,1").to_string(), "0,1");
}

TEST(DeviceSelection, RejectsGarbageWithUsageError) {
  for (const char* bad : {"", "gpu0", "-1", "0;1", "x"}) {
    try {
      DeviceSelection::parse(bad);
      FAIL() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::Usage) << bad;
      EXPECT_NE(std::string(e.what()).find("--device"), std::string::npos);
    }
  }
}

TEST(DeviceSelection, RanksMapRoundRobinOntoGpus) {
  const auto sel = DeviceSelection::parse("0,1");
  EXPECT_EQ(sel.gpu_for_rank(0), 0);
  EXPECT_EQ(sel.gpu_for_rank(1), 1);
  EXPECT_EQ(sel.gpu_for_rank(2), 0);
}

TEST(DeviceSelection, MissingGpuIsADeviceError) {
  const auto sel = DeviceSelection::parse("999");
  try {
    require_devices(sel);
    FAIL() << "GPU 999 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Device);
  }
  EXPECT_NO_THROW(require_devices(DeviceSelection::parse("cpu")));
}

} // namespace
} // namespace frost
