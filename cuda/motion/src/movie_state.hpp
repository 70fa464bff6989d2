#pragma once
// The state of a CudaMovie and the device stages its methods are built from (one file each:
// upload.cpp, upload_eer.cpp, device_spectra.cpp, device_correlate.cpp, patches.cpp, render.cpp).
#include <cuda_runtime.h>
#include <cufft.h>

#include <memory>
#include <vector>

#include "frost/cuda/device_buffer.hpp"
#include "frost/cuda/motion.hpp"
#include "frost/fft/planner.hpp"
#include "frost/motion/peak_search.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::cuda {

struct CudaMovie::Impl {
  CudaMotionOptions options;
  int count = 0;
  motion::Size2 size;
  int first_frame = 0;
  DeviceBuffer<float> frames; ///< count x (size.x·size.y), frame t at t·size.x·size.y
  Stream stream;              ///< every compute stage runs here, in order
  std::shared_ptr<fft::Planner> planner;
  CudaMotionStats stats;

  index_t pixels() const { return size.x * size.y; }
  /// Records the device memory in use now into stats.peak_used_bytes.
  void note_memory();
  /// Bytes the batches of a stage may allocate: options.memory_fraction of the free memory.
  std::size_t budget() const;
  /// Copies `count` frames produced by `produce` to `frames` (pinned slots, two groups in flight).
  void upload(const FrameProducer& produce);
  /// Copies the stored bytes of `count` frames to the device in chunks (CPU threads read, each
  /// chunk is uploaded and decoded on the device while the next is read).
  void upload_stored(const StoredFrameSource& source);
  /// A dark or gain reference of the frame size on the device, queued on `stream` (empty: none).
  DeviceBuffer<float> upload_reference(View<const float> reference, const char* what);
  /// Copies the compressed raw frames of an EER movie to the device (CPU threads read chunks into
  /// pinned slots while the previous chunk uploads), then renders and corrects them there.
  void upload_eer(const EerFrameSource& source);
};

/// The batch size for `total` items at most `cap` per batch, evened out over the batches that
/// takes (30 frames at 16: two batches of 15), so one cuFFT plan serves every batch.
inline int balanced_batch(int cap, int total) {
  if (cap < 1 || total < 1) return 1;
  const int batches = (total + cap - 1) / cap;
  return (total + batches - 1) / batches;
}

/// Device-side Fourier crop: a device copy of `filter` (empty view: none).
DeviceBuffer<float> upload_filter(View<const float> filter, cudaStream_t stream);

/// @brief filtered_spectra() of `count` dense nx x ny images at `images` (device) into `out`
/// ((C_x/2+1) x C_y per image), `batch` images per R2C execution.
void device_spectra(CudaMovie::Impl& m, const float* images, index_t nx, index_t ny, int count,
                    const motion::WorkingSizes& sizes, const float* filter, cufftComplex* out, int batch);

/// Images per R2C batch that fit the budget (window copy + half spectrum per image), capped.
int spectra_batch(const CudaMovie::Impl& m, const motion::WorkingSizes& sizes, int count);

/// @brief The peak windows of the correlations of item pairs (first, second) of `spectra`
/// (items of (C_x/2+1) x C_y), in the order of `pairs`: products, batched C2R, peak kernel.
std::vector<motion::PeakWindow> device_correlate(CudaMovie::Impl& m, const cufftComplex* spectra,
                                                 const motion::WorkingSizes& sizes, const std::vector<int2>& pairs,
                                                 double radius);

/// PairMeasurement of frame pair `pair` from its peak window (refine_peak, then m = -p·(M/C)).
motion::PairMeasurement measurement_from(const motion::PeakWindow& window, motion::FramePair pair,
                                         const motion::WorkingSizes& sizes, const motion::CorrelationOptions& options);

} // namespace frost::cuda
