#pragma once
/// @file buffer.hpp
/// @brief FftBuffer: memory in a planner's memory space (host or one GPU), so code written
/// once can stage data for any backend: allocate, upload, execute, download.
#include <cstddef>
#include <memory>

#include "frost/fft/plan.hpp"

namespace frost::fft {

class BufferImpl;

/// @brief Move-only owning buffer made by Planner::allocate. Host buffers are 64-byte aligned;
/// device buffers come from cudaMalloc (256-byte aligned). Contents start uninitialised.
class FftBuffer {
public:
  FftBuffer() = default;
  explicit FftBuffer(std::unique_ptr<BufferImpl> impl) noexcept;
  ~FftBuffer();
  FftBuffer(FftBuffer&&) noexcept;
  FftBuffer& operator=(FftBuffer&&) noexcept;
  FftBuffer(const FftBuffer&) = delete;
  FftBuffer& operator=(const FftBuffer&) = delete;

  void* data() noexcept;
  const void* data() const noexcept;
  template <class T>
  T* as() noexcept { return static_cast<T*>(data()); }
  template <class T>
  const T* as() const noexcept { return static_cast<const T*>(data()); }
  std::size_t bytes() const noexcept;
  Backend space() const;

  /// @brief Copies `bytes` from host memory to the start of the buffer; returns when done.
  /// On CUDA the copy is ordered on opts.stream. @throw frost::Error if bytes > this->bytes().
  void upload(const void* host, std::size_t bytes, const ExecOptions& opts = {});
  /// @brief Copies the first `bytes` to host memory; returns when done (waits for earlier work
  /// on opts.stream, e.g. an asynchronous execution). @throw frost::Error if too large.
  void download(void* host, std::size_t bytes, const ExecOptions& opts = {}) const;
  /// @brief As upload() and download(), for the bytes [offset, offset + bytes) of the buffer
  /// (staging a large transform in pieces). @throw frost::Error if the range exceeds the buffer.
  void upload_at(std::size_t offset, const void* host, std::size_t bytes, const ExecOptions& opts = {});
  void download_from(std::size_t offset, void* host, std::size_t bytes, const ExecOptions& opts = {}) const;
  /// Copies the first `bytes` of another buffer of the same space (asynchronous on CUDA).
  void copy_from(const FftBuffer& src, std::size_t bytes, const ExecOptions& opts = {});
  /// Sets every byte to zero (asynchronous on CUDA).
  void zero(const ExecOptions& opts = {});

private:
  std::unique_ptr<BufferImpl> impl_;
};

} // namespace frost::fft
