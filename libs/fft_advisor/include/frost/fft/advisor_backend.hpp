#pragma once
/// @file advisor_backend.hpp
/// @brief What the advisor needs from an FFT library: scratch-size estimates
/// (docs/fft_advisor.md#options-batch-and-memory) and timings (docs/fft_advisor.md#measuring),
/// behind interfaces so that the heuristic runs in CPU-only builds and CI.
#include <memory>
#include <string>

#include "frost/fft/advisor_types.hpp"

namespace frost::fft {

/// Scratch (plan work area) bytes of one execution of a candidate.
class ScratchModel {
public:
  virtual ~ScratchModel() = default;
  virtual std::size_t scratch_bytes(const Candidate& c) const = 0;
  virtual std::string name() const = 0; ///< "device", "worst", "paper"
};

/// The documented worst case (D9): 8 complex elements per signal element times the batch.
std::unique_ptr<ScratchModel> worst_case_scratch_model();
/// The paper's per-1000-element figures (U8, U9), by smoothness and parity of the sizes.
std::unique_ptr<ScratchModel> paper_scratch_model();

/// Times configurations on one device (a GPU with cuFFT, or the CPU with FFTW).
class Measurer {
public:
  virtual ~Measurer() = default;
  /// Plans and times `c` with protocol `p`. Never throws for a failing configuration: the
  /// returned Measurement has status "error" and the library's message.
  virtual Measurement measure(const Candidate& c, const Protocol& p) = 0;
  /// Canonical identity for cache keys (docs/fft_advisor.md#cache-key), e.g.
  /// "cuda|NVIDIA H100 80GB HBM3|9.0|132|79".
  virtual std::string device_identity() const = 0;
  /// Library versions for cache keys (docs/fft_advisor.md#cache-key), e.g.
  /// "driver 13000|runtime 13000|cufft 12000".
  virtual std::string library_versions() const = 0;
  /// Provenance only (not part of keys): GPU UUID or host name.
  virtual std::string device_uuid() const { return {}; }
  /// Memory available to one configuration (GPU: free memory minus 5 %; CPU: 0 = unlimited).
  virtual std::size_t default_memory_limit() const { return 0; }
  /// Called before and after a series of measurements whose state may persist in `cache_dir`
  /// (FFTW: load and save this machine's wisdom, docs/fft_advisor.md#wisdom). Default: nothing.
  virtual void begin_session(const std::string& cache_dir) { (void)cache_dir; }
  virtual void end_session(const std::string& cache_dir) { (void)cache_dir; }
  /// A scratch model that asks the library itself (cuFFT estimate/getSize), or nullptr.
  virtual std::unique_ptr<ScratchModel> device_scratch_model() const { return nullptr; }
};

/// FFTW measurer (always available): aligned buffers, the protocol's effort, steady clock.
/// `threads` is part of its identity (cache keys) and should equal Protocol::fftw_threads.
std::unique_ptr<Measurer> make_fftw_measurer(int threads = 1);
/// cuFFT measurer for a device: CUDA events, cold L2, caller-owned work area
/// (docs/fft_advisor.md#the-cufft-measurer). Throws frost::Error(Device) when frost was built
/// without CUDA or the device does not exist.
std::unique_ptr<Measurer> make_cufft_measurer(int device);

} // namespace frost::fft
