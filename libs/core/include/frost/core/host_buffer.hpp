#pragma once
/// @file host_buffer.hpp
/// @brief Owning, aligned host memory; optionally page-locked (pinned) for fast transfers.
#include <cstddef>
#include <cstring>
#include <utility>

namespace frost {

enum class HostMemory {
  Pageable, ///< 64-byte aligned ordinary memory
  Pinned    ///< page-locked (cudaHostAlloc) when CUDA is compiled in and a driver is present,
            ///< otherwise falls back to Pageable
};

/// Raw allocation hooks. Pinned memory goes through the CUDA runtime when available; freed
/// pinned blocks are kept for reuse by later requests of about their size (page-locking is slow
/// and stalls other threads' CUDA calls), up to FROST_PINNED_CACHE_MB in all (default 1024; 0
/// frees them at once).
void* host_allocate(std::size_t bytes, HostMemory kind, HostMemory* actual);
void host_free(void* p, HostMemory actual) noexcept;
/// Bytes of pinned memory kept for reuse (0 without CUDA).
std::size_t pinned_cache_free_bytes() noexcept;
/// Bytes of pinned memory handed out and not yet freed (0 without CUDA).
std::size_t pinned_live_bytes() noexcept;
/// The process's resident memory in bytes (/proc/self/statm; 0 where it cannot be read).
std::size_t resident_memory_bytes() noexcept;
/// The most resident memory the process has had, in bytes (VmHWM of /proc/self/status; 0 where it
/// cannot be read).
std::size_t peak_resident_memory_bytes() noexcept;
/// Faults in the pages of fresh memory on the CPU threads (a zero byte written per page), so a
/// later copy into it runs at memory speed; the other bytes are left as they were.
void host_prefault(void* p, std::size_t bytes);

/// Move-only owning array of T on the host. Contents are uninitialised unless zero() is called.
template <class T>
class HostBuffer {
public:
  HostBuffer() = default;
  explicit HostBuffer(std::size_t count, HostMemory kind = HostMemory::Pageable)
      : count_(count) {
    if (count_ > 0) data_ = static_cast<T*>(host_allocate(count_ * sizeof(T), kind, &kind_));
  }
  ~HostBuffer() { reset(); }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  HostBuffer(HostBuffer&& o) noexcept { swap(o); }
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      swap(o);
    }
    return *this;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }
  bool empty() const noexcept { return count_ == 0; }
  HostMemory memory() const noexcept { return kind_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + count_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + count_; }
  void zero() noexcept {
    if (data_) std::memset(static_cast<void*>(data_), 0, bytes());
  }

  void reset() noexcept {
    if (data_) host_free(data_, kind_);
    data_ = nullptr;
    count_ = 0;
  }

private:
  void swap(HostBuffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(count_, o.count_);
    std::swap(kind_, o.kind_);
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
  HostMemory kind_ = HostMemory::Pageable;
};

} // namespace frost
