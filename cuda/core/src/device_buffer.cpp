#include "frost/cuda/device_buffer.hpp"

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

std::pair<std::size_t, std::size_t> memory_info() {
  std::size_t free_b = 0, total_b = 0;
  FROST_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  return {free_b, total_b};
}

} // namespace frost::cuda
