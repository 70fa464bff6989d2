#pragma once
/// @file motion_backend.hpp
/// @brief One device that holds movies for the alignment pipeline: the CPU or one GPU
/// (docs/movie_align.md#the-backend-seam). make_motion_backend() is the one place the backend is
/// chosen; the CUDA backend lives in cuda/motion, which defines detail::make_cuda_motion_backend
/// (libs/motion/pipeline/src/motion_backend_unavailable.cpp throws in builds without CUDA), so no libs/
/// header includes a CUDA one.
///
/// A backend holds no state of one movie: several threads may each load and align their own
/// movies on it (one backend per GPU), and a movie may be loaded while another aligns.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "frost/core/image.hpp"
#include "frost/motion/movie_frames.hpp"
#include "frost/motion/movie_reader.hpp"
#include "frost/tuning/policy.hpp"

namespace frost::motion {

/// Work items per device batch (GPU only; 0 = from the memory budget). Results do not depend on
/// them; tests set small ones so that every stage runs several batches, the last one partial.
struct DeviceBatches {
  int upload_group = 4; ///< frames decoded per group into pinned staging (two groups in flight)
  int frame_batch = 0;  ///< frames per R2C batch (at most 16)
  int pair_batch = 0;   ///< correlation maps per batch (at most 4096)
  int patch_batch = 0;  ///< patch stacks per batch
};

/// How a backend holds and processes movies (the program's --low-memory, --gpu-mem-fraction, --tune).
struct MotionBackendOptions {
  /// CPU: keep movies stored as integers of at most 16 bits as their counts and correct each
  /// frame whenever a stage reads it (docs/movie_align.md#low-memory-mode).
  bool low_memory = false;
  /// GPU: fraction of the free device memory (after the frames) the batches may use.
  double gpu_memory_fraction = 0.9;
  /// GPU: when set, the kernels' launch shapes come from the tuning cache
  /// (docs/tune.md#common-options); unset, the pipeline's defaults.
  std::optional<tuning::TuningOptions> tuning;
  DeviceBatches batches;
};

class MotionBackend {
public:
  virtual ~MotionBackend() = default;
  /// @brief The selected frames of `reader`, decoded, corrected and binned where this backend
  /// holds them (the reader must outlive the result). Logs what it chose (--low-memory).
  /// @throw frost::Error(Input) for unreadable frames; frost::Error(Device) when the device is
  /// missing or the movie does not fit in its memory.
  virtual std::unique_ptr<MovieFrames> load(MovieReader& reader) = 0;
  /// @brief Frames already in host memory, item i = absolute frame `first_frame` + i (copied to
  /// the device, or kept).
  virtual std::unique_ptr<MovieFrames> load(Image<float> frames, int first_frame) = 0;
  /// "cpu" or "cuda:<id>".
  virtual std::string name() const = 0;
  /// @brief True when loading a movie while another one aligns pays (a GPU: the load decodes on
  /// CPU threads, the alignment runs on the device); false where both would share the same cores.
  virtual bool loads_ahead() const { return false; }
};

/// @brief The backend of `gpu`: the CPU for gpu < 0, else CUDA device `gpu`, whose start-up
/// (context, FFT planner) begins on another thread so that it overlaps opening the first movie.
/// @throw frost::Error(Device) for a GPU in a build without CUDA.
std::unique_ptr<MotionBackend> make_motion_backend(int gpu, const MotionBackendOptions& options);

namespace detail {

/// Defined by frost_cuda_motion (motion_backend_unavailable.cpp: throws Error(Device)).
std::unique_ptr<MotionBackend> make_cuda_motion_backend(int gpu, const MotionBackendOptions& options);

} // namespace detail
} // namespace frost::motion
