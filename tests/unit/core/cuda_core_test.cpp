// CUDA core: checked calls report failures as Device errors; buffers round-trip data; the staged
// download gives the device's bytes; freed pinned blocks are reused.
#include <cstdlib>
#include <cstring>

#include "frost/core/host_buffer.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "frost/cuda/staged_copy.hpp"
#include "frost/test/support.hpp"

namespace frost::cuda {
namespace {

TEST(CudaCore, BufferRoundTrip) {
  FROST_REQUIRE_GPU();
  const auto host = test::random_floats(1 << 20, 7);
  DeviceBuffer<float> d(host.size());
  Stream s;
  std::vector<float> back(host.size());
  d.upload_async(host.data(), host.size(), s.get());
  d.download_async(back.data(), back.size(), s.get());
  s.synchronize();
  EXPECT_EQ(back, host);
}

// Sizes around the 4 MiB chunk: one partial chunk, exactly two, and several with a remainder
// that is not a multiple of a float; the bytes after the copy stay untouched.
TEST(CudaCore, StagedDownloadGivesTheDeviceBytes) {
  FROST_REQUIRE_GPU();
  const std::size_t mib = std::size_t{1} << 20;
  for (const std::size_t bytes : {std::size_t{100}, 8 * mib, 10 * mib + 12347}) {
    const auto values = test::random_floats(bytes / sizeof(float) + 1, 11);
    DeviceBuffer<unsigned char> d(bytes);
    Stream s;
    FROST_CUDA_CHECK(cudaMemcpyAsync(d.data(), values.data(), bytes, cudaMemcpyHostToDevice, s.get()));
    std::vector<unsigned char> back(bytes + 16, 0xAB);
    download_staged(back.data(), d.data(), bytes, s.get());
    EXPECT_EQ(std::memcmp(back.data(), values.data(), bytes), 0) << bytes;
    for (std::size_t i = bytes; i < back.size(); ++i) ASSERT_EQ(back[i], 0xAB) << bytes;
  }
}

// A freed pinned block is kept and handed to the next request of about its size (the cache
// default is 1 GiB), so a batch of movies pins its staging once. 37 MiB: no other test or
// stage keeps a block between 37 and 74 MiB, the sizes such a request may take.
TEST(CudaCore, FreedPinnedBlocksAreReused) {
  FROST_REQUIRE_GPU();
  const std::size_t size = std::size_t{37} << 20;
  void* first = nullptr;
  {
    HostBuffer<unsigned char> a(size, HostMemory::Pinned);
    ASSERT_EQ(a.memory(), HostMemory::Pinned);
    first = a.data();
  }
  const std::size_t kept = pinned_cache_free_bytes();
  EXPECT_GE(kept, size);
  HostBuffer<unsigned char> b(size - 1000, HostMemory::Pinned);
  EXPECT_EQ(b.data(), static_cast<void*>(first));
  EXPECT_EQ(pinned_cache_free_bytes(), kept - size);
  HostBuffer<unsigned char> c(size, HostMemory::Pinned); // the block is taken: a new one
  EXPECT_NE(c.data(), b.data());
}

TEST(CudaCore, FailedCallThrowsDeviceError) {
  FROST_REQUIRE_GPU();
  try {
    FROST_CUDA_CHECK(cudaSetDevice(100000));
    FAIL();
  } catch (const CudaError& e) {
    EXPECT_EQ(e.code(), ExitCode::Device);
    EXPECT_NE(std::string(e.what()).find("cudaSetDevice"), std::string::npos);
    cudaGetLastError();
  }
}

// A request beyond the device's memory is a Device error that says so, with the numbers; the
// device stays usable afterwards.
TEST(CudaCore, OutOfMemoryIsAClearDeviceError) {
  FROST_REQUIRE_GPU();
  const std::size_t total = memory_info().second;
  try {
    DeviceBuffer<unsigned char> too_big(2 * total);
    FAIL() << "allocating twice the device memory succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Device);
    const std::string what = e.what();
    EXPECT_NE(what.find("out of GPU memory"), std::string::npos) << what;
    EXPECT_NE(what.find("MiB requested"), std::string::npos) << what;
  }
  DeviceBuffer<float> fine(1 << 20);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

// FROST_GPU_MEMORY_LIMIT_MB makes the device look like one of that size to this process: total
// is the limit and free is the limit less what the process holds. Malformed values are usage
// errors naming the variable.
TEST(CudaCore, MemoryLimitMakesTheDeviceLookSmall) {
  FROST_REQUIRE_GPU();
  const std::size_t mib = std::size_t(1) << 20;
  ::setenv("FROST_GPU_MEMORY_LIMIT_MB", "48", 1);
  const auto [free_before, total] = memory_info();
  EXPECT_EQ(total, 48 * mib);
  EXPECT_LE(free_before, 48 * mib);
  {
    DeviceBuffer<unsigned char> held(16 * mib);
    const std::size_t free_holding = memory_info().first;
    EXPECT_LE(free_holding + 16 * mib, free_before) << free_holding << " free while holding 16 MiB";
  }
  EXPECT_EQ(memory_info().first, free_before);
  ::setenv("FROST_GPU_MEMORY_LIMIT_MB", "lots", 1);
  try {
    memory_info();
    ADD_FAILURE() << "a malformed limit was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("FROST_GPU_MEMORY_LIMIT_MB"), std::string::npos);
  }
  ::unsetenv("FROST_GPU_MEMORY_LIMIT_MB");
  EXPECT_GT(memory_info().second, 48 * mib);
}

TEST(CudaCore, EventsTime) {
  FROST_REQUIRE_GPU();
  Stream s;
  Event a, b;
  DeviceBuffer<float> d(1 << 24);
  a.record(s.get());
  d.zero_async(s.get());
  b.record(s.get());
  b.synchronize();
  EXPECT_GE(b.elapsed_ms_since(a), 0.f);
}

} // namespace
} // namespace frost::cuda
