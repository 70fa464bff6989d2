// CPU backend: FFTW plans, 64-byte aligned host buffers, OpenMP scaling.
#include "cpu_planner.hpp"

#include <fftw3.h>

#include <cstring>

#include "fftw_global.hpp"
#include "fftw_plan.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/core/threads.hpp"
#include "frost/fft/scale.hpp"

namespace frost::fft::detail {

namespace {

class HostBufferImpl final : public BufferImpl {
public:
  explicit HostBufferImpl(std::size_t bytes) : buffer_(bytes) {}
  void* data() noexcept override { return buffer_.data(); }
  std::size_t bytes() const noexcept override { return buffer_.bytes(); }
  Backend space() const noexcept override { return Backend::Cpu; }
  void upload(const void* host, std::size_t offset, std::size_t n, const ExecOptions&) override {
    std::memcpy(static_cast<char*>(data()) + offset, host, n);
  }
  void download(void* host, std::size_t offset, std::size_t n, const ExecOptions&) const override {
    std::memcpy(host, reinterpret_cast<const char*>(buffer_.data()) + offset, n);
  }
  void copy_from(const void* src, std::size_t n, const ExecOptions&) override {
    std::memcpy(buffer_.data(), src, n);
  }
  void zero(const ExecOptions&) override { buffer_.zero(); }

private:
  HostBuffer<std::byte> buffer_;
};

class CpuPlanner final : public Planner {
public:
  CpuPlanner() : Planner(Backend::Cpu, -1) { fftw_init(); }

  FftBuffer allocate(std::size_t bytes) override {
    return FftBuffer(std::make_unique<HostBufferImpl>(bytes));
  }
  void scale(void* data, std::size_t count, float factor, const ExecOptions&) override {
    fft::scale(static_cast<float*>(data), count, factor);
  }
  void synchronize(const ExecOptions&) override {}
  std::string describe() const override {
    return std::string("cpu: FFTW ") + fftwf_version + ", " + std::to_string(num_threads()) +
           " threads by default";
  }

protected:
  PlanOptions normalize(const PlanOptions& opts) const override {
    PlanOptions o = opts;
    if (o.threads <= 0) o.threads = num_threads();
    return o;
  }
  std::shared_ptr<const PlanImpl> create(const FftSpec& spec, const PlanOptions& opts) override {
    return FftwPlan::create(spec, opts);
  }
};

} // namespace

std::shared_ptr<Planner> make_cpu_planner() { return std::make_shared<CpuPlanner>(); }

} // namespace frost::fft::detail
