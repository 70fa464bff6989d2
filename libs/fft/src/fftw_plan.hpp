#pragma once
// The FFTW (CPU) plan behind FftPlan.
#include <fftw3.h>

#include <cstddef>
#include <memory>
#include <mutex>

#include "frost/core/host_buffer.hpp"
#include "frost/fft/backend.hpp"

namespace frost::fft::detail {

/// @brief One FFTW plan, executed with the new-array functions (thread-safe in FFTW).
///
/// The plan is made on planner-owned 64-byte aligned arrays, so FFTW_MEASURE never touches
/// caller data. Callers' arrays may have any alignment: arrays that do not share the planning
/// arrays' SIMD alignment (e.g. one item of a stack of odd-sized images) run through a second
/// plan made with FFTW_UNALIGNED on first need.
class FftwPlan final : public PlanImpl {
public:
  /// nullptr when rigor is WisdomOnly and no wisdom covers the spec. Takes the FFTW lock.
  static std::shared_ptr<const FftwPlan> create(const FftSpec& spec, const PlanOptions& opts);
  FftwPlan(const FftSpec& spec, const PlanOptions& opts, fftwf_plan aligned);
  ~FftwPlan() override;

  void run(const void* in, void* out, const ExecOptions& opts) const override;
  std::size_t workspace_bytes() const override { return scratch_bytes_; }
  std::string describe() const override;

private:
  fftwf_plan plan_for(const void* in, const void* out) const;
  void execute_raw(fftwf_plan p, void* in, void* out) const;

  fftwf_plan aligned_ = nullptr;
  mutable std::once_flag unaligned_once_;
  mutable fftwf_plan unaligned_ = nullptr;
  std::size_t scratch_bytes_ = 0; ///< the preserve_input copy (C2R only)
  mutable HostBuffer<std::byte> scratch_;
  mutable std::mutex scratch_mutex_; ///< one execution at a time uses the plan-owned scratch
};

} // namespace frost::fft::detail
