// The per-device measurement lock (docs/fft_advisor.md#measurement-lock) excludes a second holder
// until it is released.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>

#include "frost/fft/advisor_cache.hpp"
#include "frost/test/support.hpp"

namespace frost::fft {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(DeviceLock, SecondHolderTimesOutUntilTheFirstReleases) {
  frost::test::TempDir tmp;
  auto first = std::make_unique<DeviceLock>(tmp.file("cache"), "GPU-1234-abcd", 1.0);
  ASSERT_TRUE(first->held());
  EXPECT_TRUE(std::filesystem::exists(tmp.file("cache/device-GPU-1234-abcd.lock")));

  const auto t0 = std::chrono::steady_clock::now();
  {
    DeviceLock second(tmp.file("cache"), "GPU-1234-abcd", 0.2);
    EXPECT_FALSE(second.held());
  }
  const double waited = seconds_since(t0);
  EXPECT_GE(waited, 0.15);
  EXPECT_LT(waited, 2.0);

  DeviceLock other_device(tmp.file("cache"), "GPU-5678", 0.0);
  EXPECT_TRUE(other_device.held());

  first.reset();
  DeviceLock third(tmp.file("cache"), "GPU-1234-abcd", 0.0);
  EXPECT_TRUE(third.held());
}

TEST(DeviceLock, WaitingHolderGetsTheLockWhenReleased) {
  frost::test::TempDir tmp;
  auto first = std::make_unique<DeviceLock>(tmp.path(), "cpu-host", 0.0);
  ASSERT_TRUE(first->held());
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    first.reset();
  });
  DeviceLock second(tmp.path(), "cpu-host", 10.0);
  release.join();
  EXPECT_TRUE(second.held());
}

TEST(DeviceLock, StrangeIdentitiesStayInsideTheDirectory) {
  frost::test::TempDir tmp;
  DeviceLock lock(tmp.file("cache"), "../../etc/x y|z", 0.0);
  EXPECT_TRUE(lock.held());
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(tmp.file("cache"))) {
    ++files;
    EXPECT_EQ(e.path().filename().string().find('/'), std::string::npos);
  }
  EXPECT_EQ(files, 1);
}

} // namespace
} // namespace frost::fft
