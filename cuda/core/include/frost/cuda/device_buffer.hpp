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

/// cudaMalloc on the current device, whose id is returned, with frost::Error(Device) "out of GPU
/// memory" (bytes asked, free, total, and what to do) when the device cannot give them; other
/// failures as FROST_CUDA_CHECK. The bytes count towards this process's use of that device
/// (memory_info) until device_release.
int device_allocate(void** ptr, std::size_t bytes);
/// cudaFree of a device_allocate'd block; never throws.
void device_release(void* ptr, std::size_t bytes, int device) noexcept;

/// Move-only array of T in device memory (cudaMalloc). Contents uninitialised.
template <class T>
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) device_ = device_allocate(reinterpret_cast<void**>(&data_), count_ * sizeof(T));
  }
  ~DeviceBuffer() {
    if (data_) device_release(data_, bytes(), device_); // destructors only release, never throw
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), count_(std::exchange(o.count_, 0)), device_(o.device_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      if (data_) device_release(data_, bytes(), device_);
      data_ = std::exchange(o.data_, nullptr);
      count_ = std::exchange(o.count_, 0);
      device_ = o.device_;
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
  int device_ = -1;
};

/// Free and total memory of the current device, in bytes: what every batch planner sizes its
/// batches by. With FROST_GPU_MEMORY_LIMIT_MB (environment) set, the device looks to this
/// process like one of that size: total = the limit, free = the limit less what this process
/// holds in DeviceBuffers on it (at most the real free memory), so that a job sharing a GPU, or
/// a test of memory pressure, runs in a given budget. (cuFFT's own work areas are not counted.)
std::pair<std::size_t, std::size_t> memory_info();

/// Bytes this process holds in DeviceBuffers on `device`.
std::size_t allocated_bytes(int device);

/// The FROST_GPU_MEMORY_LIMIT_MB cap in bytes, 0 when unset; frost::Error(Usage) when malformed.
std::size_t memory_limit_bytes();

} // namespace frost::cuda
