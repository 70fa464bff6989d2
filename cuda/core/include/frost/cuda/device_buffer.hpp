#pragma once
/// @file device_buffer.hpp
/// @brief Owning device memory (move-only RAII) and the stream/event handles that order its use.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "frost/core/image.hpp"
#include "frost/cuda/check.hpp"

namespace frost::cuda {

/// Makes `id` current for the lifetime of the guard and restores the previous device after.
class DeviceGuard {
public:
  explicit DeviceGuard(int id);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

private:
  int previous_ = 0;
};

/// A non-blocking CUDA stream.
class Stream {
public:
  Stream();
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept;
  cudaStream_t get() const noexcept { return s_; }
  void synchronize() const;

private:
  cudaStream_t s_ = nullptr;
};

/// A CUDA event: timing by default; `flags` as for cudaEventCreateWithFlags (e.g.
/// cudaEventDisableTiming | cudaEventBlockingSync for a cheap completion marker that a host
/// thread waits on without spinning).
class Event {
public:
  Event();
  explicit Event(unsigned int flags);
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const noexcept { return e_; }
  void record(cudaStream_t s) const;
  void synchronize() const;
  /// Milliseconds from `start` to this event (both recorded and complete).
  float elapsed_ms_since(const Event& start) const;

private:
  cudaEvent_t e_ = nullptr;
};

/// Move-only array of T in device memory (cudaMalloc). Contents uninitialised.
template <class T>
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) FROST_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count_ * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (data_) cudaFree(data_); // destructors only release, never throw
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      if (data_) cudaFree(data_);
      data_ = std::exchange(o.data_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

  void zero_async(cudaStream_t s) { FROST_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes(), s)); }
  void upload_async(const T* host, std::size_t count, cudaStream_t s) {
    FROST_EXPECTS(count <= count_, "upload larger than the device buffer");
    FROST_CUDA_CHECK(cudaMemcpyAsync(data_, host, count * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void download_async(T* host, std::size_t count, cudaStream_t s) const {
    FROST_EXPECTS(count <= count_, "download larger than the device buffer");
    FROST_CUDA_CHECK(cudaMemcpyAsync(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost, s));
  }
  View<T> view(const Shape& shape) noexcept { return {data_, shape}; }

private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

/// Free and total memory of the current device, in bytes.
std::pair<std::size_t, std::size_t> memory_info();

} // namespace frost::cuda
