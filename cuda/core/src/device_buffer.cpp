#include "frost/cuda/device_buffer.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <string>

namespace frost::cuda {

DeviceGuard::DeviceGuard(int id) {
  FROST_CUDA_CHECK(cudaGetDevice(&previous_));
  FROST_CUDA_CHECK(cudaSetDevice(id));
}
DeviceGuard::~DeviceGuard() { cudaSetDevice(previous_); }

Stream::Stream() { FROST_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
Stream::~Stream() {
  if (s_) cudaStreamDestroy(s_);
}
Stream& Stream::operator=(Stream&& o) noexcept {
  if (this != &o) {
    if (s_) cudaStreamDestroy(s_);
    s_ = std::exchange(o.s_, nullptr);
  }
  return *this;
}
void Stream::synchronize() const { FROST_CUDA_CHECK(cudaStreamSynchronize(s_)); }

Event::Event() { FROST_CUDA_CHECK(cudaEventCreate(&e_)); }
Event::Event(unsigned int flags) { FROST_CUDA_CHECK(cudaEventCreateWithFlags(&e_, flags)); }
Event::~Event() {
  if (e_) cudaEventDestroy(e_);
}
void Event::record(cudaStream_t s) const { FROST_CUDA_CHECK(cudaEventRecord(e_, s)); }
void Event::synchronize() const { FROST_CUDA_CHECK(cudaEventSynchronize(e_)); }
float Event::elapsed_ms_since(const Event& start) const {
  float ms = 0;
  FROST_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
  return ms;
}

std::size_t memory_limit_bytes() {
  const char* text = std::getenv("FROST_GPU_MEMORY_LIMIT_MB");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  errno = 0;
  const double mb = std::strtod(text, &end);
  if (end == text || *end != '\0' || errno != 0 || !(mb > 0) || mb > 1e9)
    throw_usage_error(std::string("FROST_GPU_MEMORY_LIMIT_MB must be a positive number of MiB, not '") + text + "'");
  return static_cast<std::size_t>(mb * 1048576.0);
}

namespace {

constexpr int kTrackedDevices = 64;

std::atomic<std::size_t>& held(int device) {
  static std::array<std::atomic<std::size_t>, kTrackedDevices> bytes{};
  static std::atomic<std::size_t> other{0}; // ids beyond the table share one count
  return device >= 0 && device < kTrackedDevices ? bytes[static_cast<std::size_t>(device)] : other;
}

} // namespace

std::size_t allocated_bytes(int device) { return held(device).load(); }

std::pair<std::size_t, std::size_t> memory_info() {
  std::size_t free_b = 0, total_b = 0;
  FROST_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (const std::size_t limit = memory_limit_bytes(); limit > 0 && limit < total_b) {
    int device = 0;
    FROST_CUDA_CHECK(cudaGetDevice(&device));
    const std::size_t used = allocated_bytes(device);
    free_b = std::min(free_b, used < limit ? limit - used : 0);
    total_b = limit;
  }
  return {free_b, total_b};
}

void device_release(void* ptr, std::size_t bytes, int device) noexcept {
  if (ptr == nullptr) return;
  cudaFree(ptr);
  held(device) -= bytes;
}

int device_allocate(void** ptr, std::size_t bytes) {
  int current = 0;
  FROST_CUDA_CHECK(cudaGetDevice(&current));
  const cudaError_t status = cudaMalloc(ptr, bytes);
  if (status == cudaSuccess) {
    held(current) += bytes;
    return current;
  }
  if (status != cudaErrorMemoryAllocation) throw CudaError(status, "cudaMalloc", __FILE__, __LINE__);
  static_cast<void>(cudaGetLastError()); // not sticky, but leave no error behind
  std::size_t free_b = 0, total_b = 0;
  int device = -1;
  static_cast<void>(cudaMemGetInfo(&free_b, &total_b));
  static_cast<void>(cudaGetDevice(&device));
  const auto mib = [](std::size_t b) { return std::to_string((b + 1048575) / 1048576) + " MiB"; };
  throw Error(ExitCode::Device, "out of GPU memory on device " + std::to_string(device) + ": " + mib(bytes) +
                                    " requested, " + mib(free_b) + " free of " + mib(total_b) +
                                    " (other processes on this GPU? lower --gpu-mem-fraction where the program has "
                                    "it, or run on an idle GPU)");
}

} // namespace frost::cuda
