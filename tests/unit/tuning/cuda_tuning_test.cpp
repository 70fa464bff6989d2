// The GPU side of tuning: the device's limits feed the spaces' constraints (on a 1024-thread GPU
// the golden counts of docs/tune.md#the-spaces-of-frost-kernels hold), and timed launches follow
// the protocol of docs/tune.md#offline-protocol and order work by its size.
#include <gtest/gtest.h>

#include "frost/cuda/tuning.hpp"
#include "frost/test/support.hpp"
#include "frost/tuning/kernel_spaces.hpp"

namespace frost::cuda {
namespace {

TEST(CudaTuning, DeviceLimitsFeedTheSpaces) {
  FROST_REQUIRE_GPU();
  const tuning::DeviceLimits l = device_limits(0);
  EXPECT_GE(l.max_threads_per_block, 256);
  EXPECT_EQ(l.warp_size, 32);
  EXPECT_GE(l.max_shared_bytes_per_block, tuning::kDefaultSharedBytesPerBlock);
  EXPECT_GE(l.cc_major, 7);
  if (l.max_threads_per_block == 1024) { // every GPU frost targets (Volta to Hopper)
    EXPECT_EQ(tuning::ma_correlate_space(l).space.enumerate().size(), 168u);
    EXPECT_EQ(tuning::fourier_crop_filter_space(l).space.enumerate().size(), 54u);
    EXPECT_EQ(tuning::extrema_full_space(l).space.enumerate().size(), 6u);
  }
  std::printf("device 0: %lld threads/block, %lld KiB shared/block (opt-in), cc %d.%d\n",
              static_cast<long long>(l.max_threads_per_block),
              static_cast<long long>(l.max_shared_bytes_per_block / 1024), l.cc_major, l.cc_minor);
}

TEST(CudaTuning, TimedLaunchesFollowTheProtocolAndOrderWorkBySize) {
  FROST_REQUIRE_GPU();
  const std::size_t small = std::size_t(8) << 20, large = std::size_t(512) << 20;
  DeviceBuffer<unsigned char> buffer(large);
  Stream s;
  const auto fill = [&](std::size_t bytes) {
    return [&buffer, bytes](cudaStream_t stream) { FROST_CUDA_CHECK(cudaMemsetAsync(buffer.data(), 1, bytes, stream)); };
  };
  const tuning::Measurement a = measure_launch(s.get(), fill(small), std::nullopt);
  const tuning::Measurement b = measure_launch(s.get(), fill(large), a.median_ms);
  for (const tuning::Measurement* m : {&a, &b}) {
    EXPECT_GE(m->samples_ms.size(), m->lower_bound ? 1u : 3u);
    EXPECT_LE(m->samples_ms.size(), 50u);
    EXPECT_TRUE(m->samples_ms.size() == 50u || m->total_ms() >= 10.0 || m->lower_bound);
    EXPECT_GT(m->median_ms, 0.0);
  }
  // 64x the bytes takes longer; on an idle GPU more than 5x (one sample, a lower bound), but other
  // tests may share the GPU, so only the order is asserted (the lower-bound rule is tested on the
  // CPU with scripted samples).
  EXPECT_GT(b.median_ms, a.median_ms);
  if (b.lower_bound) {
    EXPECT_EQ(b.samples_ms.size(), 1u);
  }
  std::printf("memset 8 MiB: %.4f ms (%zu samples, %.0f GB/s); 512 MiB: %.4f ms%s\n", a.median_ms,
              a.samples_ms.size(), double(small) / (a.median_ms * 1e6), b.median_ms,
              b.lower_bound ? " (lower bound)" : "");
}

} // namespace
} // namespace frost::cuda
