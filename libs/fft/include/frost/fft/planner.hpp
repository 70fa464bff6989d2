#pragma once
/// @file planner.hpp
/// @brief Planner: makes and caches FftPlans for one backend (the CPU, or one CUDA device).
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "frost/fft/buffer.hpp"
#include "frost/fft/plan.hpp"

namespace frost::fft {

/// @brief Creates plans for one backend and device and caches them by spec and options.
///
/// Thread-safe: concurrent plan() calls are serialised (FFTW's planner is not re-entrant, and
/// one spec is planned once). A cached plan satisfies a request of equal or lower rigor; a
/// request of higher rigor replans and replaces the cache entry (handles already given out keep
/// the plan they hold).
class Planner {
public:
  virtual ~Planner();
  Planner(const Planner&) = delete;
  Planner& operator=(const Planner&) = delete;

  Backend backend() const noexcept { return backend_; }
  int device() const noexcept { return device_; } ///< CUDA device id, -1 for the CPU

  /// @brief A plan for `spec`, from the cache when possible.
  /// @throw frost::Error(Runtime) for an invalid spec (FftSpec::validate) or a WisdomOnly request
  /// that wisdom does not cover; frost::Error(Device) when cuFFT cannot make the plan.
  FftPlan plan(const FftSpec& spec, const PlanOptions& opts = {});
  /// As plan(), but an empty FftPlan instead of an error when WisdomOnly finds no wisdom.
  FftPlan try_plan(const FftSpec& spec, const PlanOptions& opts = {});
  std::size_t cached_plans() const;
  void clear_cache();

  /// Memory in this backend's space (host, or the planner's GPU).
  virtual FftBuffer allocate(std::size_t bytes) = 0;
  /// Multiplies `count` floats at `data` (in this backend's space) by `factor`. Asynchronous on
  /// CUDA (opts.stream). Use it with inverse_scale() for a normalised round trip.
  virtual void scale(void* data, std::size_t count, float factor, const ExecOptions& opts = {}) = 0;
  /// Waits until work queued on opts.stream is done (no-op on the CPU).
  virtual void synchronize(const ExecOptions& opts = {}) = 0;
  /// "cpu: FFTW fftw-3.3.10 ..., 2 threads" or "cuda:0 NVIDIA H100 ..., cuFFT 12.0.0".
  virtual std::string describe() const = 0;

protected:
  Planner(Backend backend, int device) : backend_(backend), device_(device) {}
  /// Options as the backend will use them (e.g. threads resolved); the cache key uses these.
  virtual PlanOptions normalize(const PlanOptions& opts) const = 0;
  /// A new plan, or nullptr when rigor is WisdomOnly and no wisdom covers the spec.
  virtual std::shared_ptr<const PlanImpl> create(const FftSpec& spec, const PlanOptions& opts) = 0;

private:
  struct Key {
    FftSpec spec;
    bool preserve_input;
    bool external_workspace;
    int threads;
    friend bool operator==(const Key& a, const Key& b) {
      return a.spec == b.spec && a.preserve_input == b.preserve_input &&
             a.external_workspace == b.external_workspace && a.threads == b.threads;
    }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const noexcept;
  };
  struct Entry {
    std::shared_ptr<const PlanImpl> plan;
    int strength; ///< rigor the plan was made with: 0 estimate, 1 measure, 2 patient
  };

  Backend backend_;
  int device_;
  mutable std::mutex mutex_;
  std::unordered_map<Key, Entry, KeyHash> cache_;
};

/// @brief A new planner with its own cache.
/// @param device CUDA device id (ignored for the CPU).
/// @throw frost::Error(Device) for Backend::Cuda when frost was built without CUDA ("built
/// without CUDA") or the device does not exist.
std::shared_ptr<Planner> make_planner(Backend backend, int device = 0);

/// @brief The process-wide planner of a backend and device (plans cached per device), made on
/// first use. Lives until the process exits. Same errors as make_planner().
std::shared_ptr<Planner> shared_planner(Backend backend, int device = 0);

} // namespace frost::fft
