#pragma once
// The frames of one movie where the chosen device holds them (host RAM for --device cpu, the
// GPU for --device <id>), seen through the three backend interfaces of libs/motion, so
// align_movie() runs one pipeline for both (docs/movie_align.md#pipeline-and-backends).
#include <future>
#include <memory>
#include <string>

#include "frost/core/image.hpp"
#include "frost/motion/frame_renderer.hpp"
#include "frost/motion/movie_reader.hpp"
#include "frost/motion/pair_measurer.hpp"
#include "frost/motion/patch_measurer.hpp"
#include "frost/tuning/policy.hpp"

namespace frost::movie_align {

class LoadedMovie {
public:
  virtual ~LoadedMovie() = default;
  virtual motion::PairMeasurer& pairs() = 0;
  virtual motion::PatchMeasurer& patches() = 0;
  virtual motion::FrameRenderer& renderer() = 0;
  /// "cpu" or "cuda:0 NVIDIA H100 ..." for the log.
  virtual std::string describe() const = 0;
  /// Stage times of the device, for the log ("" on the CPU).
  virtual std::string device_times() const { return {}; }
};

/// Frames in host memory (item i = absolute frame `first` + i); takes ownership of `frames`.
std::unique_ptr<LoadedMovie> host_movie(Image<float> frames, int first);

/// @brief --low-memory on the CPU: the selected frames of `reader` (which must outlive the
/// result) kept as integer counts and corrected whenever a stage reads them, with the results of
/// host_movie(reader.read_all(), first) bit for bit; logs the memory saved. nullptr (after a
/// note) when the movie is not stored as integers of at most 16 bits or the counts would not be
/// smaller than the binned float frames: use host_movie().
std::unique_ptr<LoadedMovie> low_memory_movie(motion::MovieReader& reader, int first);

/// @brief Starts the start-up work of CUDA device `gpu` (context, FFT planner) on another
/// thread, so that it overlaps opening the movie; gpu_movie() waits for it. Errors
/// are left to gpu_movie(), which reports them. A no-op in builds without CUDA.
std::future<void> prepare_gpu(int gpu);

/// @brief The selected frames of `reader` on CUDA device `gpu`, once `device_ready` (from
/// prepare_gpu) is done. MRC frames that need only decoding and dark/gain are read as their
/// stored bytes by CPU threads into pinned slots and decoded on the GPU; other frames
/// are decoded by CPU threads into pinned memory and uploaded while the next frames decode
/// (frames read with hot-pixel detection are read whole first, then uploaded).
/// frost::Error(Device) when frost was built without CUDA, the device is missing or the movie
/// does not fit.
/// `tuning`: the kernels' launches come from the tuning cache (docs/tune.md#common-options).
std::unique_ptr<LoadedMovie> gpu_movie(motion::MovieReader& reader, int gpu, double memory_fraction,
                                       bool read_whole_first, std::future<void> device_ready,
                                       const tuning::TuningOptions& tuning);

} // namespace frost::movie_align
