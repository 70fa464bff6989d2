// CUDA backend: cuFFT plans cached per device, device buffers, scaling on a stream.
#include <cuda_runtime.h>
#include <cufft.h>
#include <library_types.h>

#include "cufft_plan.hpp"
#include "frost/core/device.hpp"
#include "frost/cuda/fft.hpp"
#include "frost/fft/planner.hpp"

namespace frost::cuda {

namespace {

cudaStream_t stream_of(const fft::ExecOptions& o) { return static_cast<cudaStream_t>(o.stream); }

/// Device memory (DeviceBuffer) with transfers that return when done.
class DeviceBufferImpl final : public fft::BufferImpl {
public:
  DeviceBufferImpl(int device, std::size_t bytes) : device_(device) {
    CurrentDevice on(device_);
    buffer_ = DeviceBuffer<std::byte>(bytes);
  }
  void* data() noexcept override { return buffer_.data(); }
  std::size_t bytes() const noexcept override { return buffer_.bytes(); }
  fft::Backend space() const noexcept override { return fft::Backend::Cuda; }
  void upload(const void* host, std::size_t offset, std::size_t n, const fft::ExecOptions& o) override {
    CurrentDevice on(device_);
    FROST_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(data()) + offset, host, n, cudaMemcpyHostToDevice,
                                     stream_of(o)));
    FROST_CUDA_CHECK(cudaStreamSynchronize(stream_of(o)));
  }
  void download(void* host, std::size_t offset, std::size_t n, const fft::ExecOptions& o) const override {
    CurrentDevice on(device_);
    FROST_CUDA_CHECK(cudaMemcpyAsync(host, reinterpret_cast<const char*>(buffer_.data()) + offset, n,
                                     cudaMemcpyDeviceToHost, stream_of(o)));
    FROST_CUDA_CHECK(cudaStreamSynchronize(stream_of(o)));
  }
  void copy_from(const void* src, std::size_t n, const fft::ExecOptions& o) override {
    CurrentDevice on(device_);
    FROST_CUDA_CHECK(cudaMemcpyAsync(buffer_.data(), src, n, cudaMemcpyDeviceToDevice, stream_of(o)));
  }
  void zero(const fft::ExecOptions& o) override {
    CurrentDevice on(device_);
    buffer_.zero_async(stream_of(o));
  }

private:
  int device_;
  DeviceBuffer<std::byte> buffer_;
};

class CudaPlanner final : public fft::Planner {
public:
  explicit CudaPlanner(int device) : Planner(fft::Backend::Cuda, device) {
    const int count = cuda_device_count();
    if (device < 0 || device >= count)
      FROST_THROW(ExitCode::Device, "CUDA device " + std::to_string(device) + " is not available for FFTs (" +
                                        std::to_string(count) + " visible)");
  }

  fft::FftBuffer allocate(std::size_t bytes) override {
    return fft::FftBuffer(std::make_unique<DeviceBufferImpl>(device(), bytes));
  }
  void scale(void* data, std::size_t count, float factor, const fft::ExecOptions& o) override {
    CurrentDevice on(device());
    scale_async(static_cast<float*>(data), count, factor, stream_of(o));
  }
  void synchronize(const fft::ExecOptions& o) override {
    CurrentDevice on(device());
    FROST_CUDA_CHECK(cudaStreamSynchronize(stream_of(o)));
  }
  std::string describe() const override {
    return "cuda:" + std::to_string(device()) + " " + cuda_device_description(device()) + ", cuFFT " +
           cufft_version_text();
  }

protected:
  fft::PlanOptions normalize(const fft::PlanOptions& opts) const override {
    fft::PlanOptions o = opts;
    o.threads = 0; // host threads mean nothing to cuFFT; keep them out of the cache key
    return o;
  }
  std::shared_ptr<const fft::PlanImpl> create(const fft::FftSpec& spec, const fft::PlanOptions& opts) override {
    // cuFFT has no rigor and no wisdom: every rigor, WisdomOnly included, plans the same way.
    return std::make_shared<const CufftPlan>(spec, opts, device());
  }
};

} // namespace

std::string cufft_version_text() {
  int major = 0, minor = 0, patch = 0;
  if (cufftGetProperty(MAJOR_VERSION, &major) != CUFFT_SUCCESS ||
      cufftGetProperty(MINOR_VERSION, &minor) != CUFFT_SUCCESS ||
      cufftGetProperty(PATCH_LEVEL, &patch) != CUFFT_SUCCESS)
    return "unknown";
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

} // namespace frost::cuda

namespace frost::fft::detail {

std::shared_ptr<Planner> make_cuda_planner(int device) { return std::make_shared<cuda::CudaPlanner>(device); }

std::string cufft_version_string() { return "cuFFT " + cuda::cufft_version_text(); }

int cufft_version_number() {
  int v = 0;
  return cufftGetVersion(&v) == CUFFT_SUCCESS ? v : 0;
}

} // namespace frost::fft::detail
