#pragma once
// The backend traits and fixture of the movie-pipeline suites (as tests/unit/fft does for the
// FFT): every typed test is written once and instantiated for the CPU and the CUDA backend, both
// made by make_motion_backend(); the Cuda instance skips with the reason where no GPU can be used.
// Also the shared inputs: a T3 movie as an integer MRC file, and the pipeline settings of
// docs/movie_align.md#local-accuracy.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "frost/core/image.hpp"
#include "frost/motion/motion_backend.hpp"
#include "frost/motion/movie_pipeline.hpp"
#include "frost/test/support.hpp"

namespace frost::motion::backend_test {

struct CpuMotion {
  static constexpr int gpu = -1;
};
struct CudaMotion {
  static constexpr int gpu = 0;
};
struct BackendNames {
  template <class T>
  static std::string GetName(int) {
    return T::gpu < 0 ? "Cpu" : "Cuda";
  }
};
using Backends = ::testing::Types<CpuMotion, CudaMotion>;

/// Fixture of the typed suites: the backend under test, made with `options`; the CUDA
/// instantiation skips with the reason when no GPU can be used.
template <class B>
class MotionBackendTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (B::gpu >= 0) {
      FROST_REQUIRE_GPU();
    }
  }
  MotionBackend& backend(const MotionBackendOptions& options = {}) {
    backend_ = make_motion_backend(B::gpu, options);
    return *backend_;
  }
  /// Host frames (copied) onto the backend, item i = absolute frame `first` + i; small device
  /// batches so that every GPU stage runs several, the last one partial.
  std::unique_ptr<MovieFrames> load(View<const float> frames, int first, const DeviceBatches& batches = {}) {
    MotionBackendOptions options;
    options.batches = batches;
    return backend(options).load(copy_of(frames), first);
  }
  static Image<float> copy_of(View<const float> frames) {
    Image<float> copy(frames.shape);
    for (index_t i = 0; i < frames.shape.total(); ++i) copy[i] = frames[i];
    return copy;
  }
  std::unique_ptr<MotionBackend> backend_;
};

/// The CPU backend: the reference of every parity test.
std::unique_ptr<MotionBackend> cpu_backend(const MotionBackendOptions& options = {});

/// The noisy T3 movie of the CPU/GPU equivalence tests (1024² x 20, time constant 4, dose 4,
/// contrast 0.2, `seed`) as a mode-1 (int16) MRC file at 1 Å/px, written once per process.
const std::string& t3_movie_file(std::uint32_t seed);

/// Pipeline settings of docs/movie_align.md#local-accuracy (R 30 Å, --maxShift 50 Å, 5 x 5
/// patches of 256 px, control points 4 x 4 x 5, residual model) at 1 Å/px.
MovieAlignSettings t3_settings();

/// Every sum the renderer makes.
RenderRequest all_sums();

} // namespace frost::motion::backend_test
