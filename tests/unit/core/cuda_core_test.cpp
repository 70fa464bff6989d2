// CUDA core: checked calls report failures as Device errors; buffers round-trip data.
#include "frost/cuda/device_buffer.hpp"
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
