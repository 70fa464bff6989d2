#pragma once
/// @file plan.hpp
/// @brief FftPlan: a planned transform that is executed many times, on any backend.
#include <cstddef>
#include <memory>
#include <string>

#include "frost/core/image.hpp"
#include "frost/fft/spec.hpp"

namespace frost::fft {

class PlanImpl;

/// How a plan is made. Fields other than `rigor` and `time_limit_s` are part of the plan cache key.
struct PlanOptions {
  FftRigor rigor = FftRigor::Estimate;
  /// C2R only: copy the input into scratch first, so the caller's input survives. Without it a
  /// C2R execution may overwrite its input on both backends (FFTW's multi-dimensional c2r cannot
  /// preserve its input; cuFFT's out-of-place c2r always overwrites it). R2C and C2C out of place
  /// never overwrite their input, so the flag changes nothing for them.
  bool preserve_input = false;
  /// The caller passes ExecOptions::workspace (workspace_bytes() bytes, in the plan's memory
  /// space, 256-byte aligned) to every execution instead of the plan owning its scratch.
  bool external_workspace = false;
  /// CPU: FFTW threads for this plan; 0 = frost::num_threads(). Ignored by CUDA.
  int threads = 0;
  /// CPU: upper bound on planning time in seconds (fftwf_set_timelimit); < 0 = none.
  double time_limit_s = -1.0;
};

/// Per-execution arguments that do not change the plan.
struct ExecOptions {
  /// CUDA: the cudaStream_t to run on (nullptr = the legacy default stream). Ignored on CPU.
  void* stream = nullptr;
  /// Scratch of workspace_bytes() when the plan was made with external_workspace.
  void* workspace = nullptr;
};

/// @brief A planned transform (move-only handle). Made by a Planner; equal specs and options
/// share one underlying plan through the planner's cache, which identity() exposes.
///
/// Execution is thread-safe. CPU execution is synchronous; CUDA execution is asynchronous on
/// ExecOptions::stream (executions of one plan from different streams are ordered by an event,
/// because they share the plan's work area). Data pointers must live in the plan's memory
/// space: host memory for Backend::Cpu, device memory of the plan's device for Backend::Cuda.
class FftPlan {
public:
  FftPlan() = default;
  explicit FftPlan(std::shared_ptr<const PlanImpl> impl) noexcept;
  ~FftPlan();
  FftPlan(FftPlan&&) noexcept;
  FftPlan& operator=(FftPlan&&) noexcept;
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;

  /// False for a default-constructed plan or a WisdomOnly miss (Planner::try_plan).
  explicit operator bool() const noexcept { return impl_ != nullptr; }
  const FftSpec& spec() const;
  const PlanOptions& options() const;
  Backend backend() const;
  int device() const; ///< CUDA device id; -1 for the CPU
  /// Scratch bytes per execution: cuFFT's work area plus the preserve_input copy.
  std::size_t workspace_bytes() const;
  /// One line: backend, spec, rigor, threads or device, workspace, library details.
  std::string describe() const;
  /// True when an execution may overwrite its input: every C2R without preserve_input, and
  /// every in-place transform.
  bool destroys_input() const;
  /// Same value for handles that share one underlying plan.
  const void* identity() const noexcept { return impl_.get(); }

  /// @brief Runs the transform on raw pointers laid out as spec() describes (see spec.hpp).
  /// @throw frost::Error(Runtime) for null pointers, in != out for an in-place plan, in == out
  /// for an out-of-place plan, or a missing external workspace; frost::Error(Device) on a
  /// cuFFT/CUDA failure.
  void execute(const void* in, void* out, const ExecOptions& opts = {}) const;
  /// R2C on views; shapes must equal spec().input_shape() / output_shape().
  void execute(View<const float> in, View<Complex> out, const ExecOptions& opts = {}) const;
  /// C2R on views; `in` may be overwritten unless the plan preserves its input.
  void execute(View<Complex> in, View<float> out, const ExecOptions& opts = {}) const;
  /// C2R from const data: only for plans made with preserve_input.
  void execute(View<const Complex> in, View<float> out, const ExecOptions& opts = {}) const;
  /// C2C on views.
  void execute(View<const Complex> in, View<Complex> out, const ExecOptions& opts = {}) const;

private:
  const PlanImpl& impl() const;
  void check_views(Kind kind, const void* in, const Shape& in_shape, std::size_t in_elem,
                   const void* out, const Shape& out_shape, std::size_t out_elem) const;
  std::shared_ptr<const PlanImpl> impl_;
};

} // namespace frost::fft
