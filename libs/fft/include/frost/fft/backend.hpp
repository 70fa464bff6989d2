#pragma once
/// @file backend.hpp
/// @brief What a backend implements (plans and buffers), and the entry points of the CUDA
/// backend. Users include planner.hpp; only backends (libs/fft/src, cuda/fft) include this.
///
/// The CUDA backend lives in cuda/fft (target frost_cuda_fft) and defines the functions in
/// `detail`; without CUDA, libs/fft/src/cuda_unavailable.cpp defines them to throw. This keeps
/// CUDA headers out of every libs/ header.
#include <cstddef>
#include <memory>
#include <string>

#include "frost/fft/plan.hpp"

namespace frost::fft {

class Planner;

/// A backend's plan. run() gets arguments already checked by FftPlan::execute.
class PlanImpl {
public:
  PlanImpl(const FftSpec& spec, const PlanOptions& opts, Backend backend, int device)
      : spec_(spec), options_(opts), backend_(backend), device_(device) {}
  virtual ~PlanImpl() = default;
  PlanImpl(const PlanImpl&) = delete;
  PlanImpl& operator=(const PlanImpl&) = delete;

  const FftSpec& spec() const noexcept { return spec_; }
  const PlanOptions& options() const noexcept { return options_; }
  Backend backend() const noexcept { return backend_; }
  int device() const noexcept { return device_; }

  virtual void run(const void* in, void* out, const ExecOptions& opts) const = 0;
  virtual std::size_t workspace_bytes() const = 0;
  virtual std::string describe() const = 0;

private:
  FftSpec spec_;
  PlanOptions options_;
  Backend backend_;
  int device_;
};

/// A backend's memory. Sizes are checked by FftBuffer before these are called.
class BufferImpl {
public:
  virtual ~BufferImpl() = default;
  virtual void* data() noexcept = 0;
  virtual std::size_t bytes() const noexcept = 0;
  virtual Backend space() const noexcept = 0;
  /// Copies `bytes` between host memory and the buffer's bytes [offset, offset + bytes).
  virtual void upload(const void* host, std::size_t offset, std::size_t bytes, const ExecOptions& opts) = 0;
  virtual void download(void* host, std::size_t offset, std::size_t bytes, const ExecOptions& opts) const = 0;
  virtual void copy_from(const void* src, std::size_t bytes, const ExecOptions& opts) = 0;
  virtual void zero(const ExecOptions& opts) = 0;
};

namespace detail {

/// Defined by frost_cuda_fft (or throws Error(Device) "built without CUDA").
std::shared_ptr<Planner> make_cuda_planner(int device);
/// "cuFFT 12.0.0" or "cuFFT: built without CUDA".
std::string cufft_version_string();
int cufft_version_number();

/// Throws frost::Error(Runtime) "FFT <spec>: <problem>".
[[noreturn]] void spec_error(const FftSpec& spec, const std::string& problem);

/// Rounds up to a multiple of 256 bytes (alignment of sub-buffers carved out of workspaces).
inline std::size_t align256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

} // namespace detail
} // namespace frost::fft
