#pragma once
// One lane of the CUDA accumulator (docs/reconstruct_fourier.md#the-cuda-backend): a stream on
// one device and the device copy of one batch, with the lane's kernel timing and counters.
#include <cstdint>

#include "frost/cuda/device_buffer.hpp"
#include "frost/fft/plan.hpp"
#include "frost/reconstruction/sample_batch.hpp"

namespace frost::cuda::detail {

/// What one lane did (touched only by the lane's own thread, summed after the run).
struct LaneCounters {
  std::int64_t launches = 0, images = 0, spaces = 0;
  double kernel_ms = 0, upload_bytes = 0, wait_s = 0;
};

struct Lane {
  /// Stream and events belong to the device current at construction.
  explicit Lane(int device_index) : device(device_index) {}

  int device = 0; ///< index into the accumulator's devices
  Stream stream;
  /// Completion of this lane's latest uploads; the host waits on it without spinning.
  Event copied{cudaEventDisableTiming | cudaEventBlockingSync};
  /// Kernel timing, ping-pong: the pair of launch k is read at insert k + 1 (then complete).
  Event start[2], stop[2];
  bool pending[2] = {false, false};
  int current = 0;
  DeviceBuffer<recon::Cf> spectra;
  DeviceBuffer<float> gw;
  DeviceBuffer<recon::TraverseSpace> spaces;
  // Image batches (--fftOnGPU): images, shifts, CTF factors, padded FFT inputs, R2C spectra.
  DeviceBuffer<float> raw, padded, gf;
  DeviceBuffer<double> shifts;
  DeviceBuffer<recon::Cf> freq;
  fft::FftPlan r2c; ///< batched P x P R2C of the lane's capacity (cuFFT, cached per device)
  int fft_capacity = 0;
  LaneCounters counters;

  /// Adds the elapsed time of the launch in slot `k` if it was recorded (it must be complete).
  void harvest(int k);

  /// Makes the device buffers large enough for `batch` (allocated on first use; the batch
  /// capacity is known only then) on device `device_id`, current. Checks free memory first.
  void reserve(const recon::SampleBatch& batch, const recon::GridLayout& layout, int device_id);

  /// Enqueues the batch's uploads (ordered after the lane's previous kernel, which reads the same
  /// buffers) and records `copied` after them. Returns the bytes uploaded.
  double upload(const recon::SampleBatch& batch);

  /// Pad, transform and crop the lane's `count` uploaded images into its samples (ordered on
  /// the lane's stream after the uploads, before the insertion).
  void prepare_images(int count, bool with_gf, const recon::GridLayout& layout);

  /// Waits for `copied` (the host's batch may be refilled then), counting the wait.
  void wait_for_copies();

  /// Frees the batch buffers (they make room for the finish's buffers); the lane's work is done.
  void release_batch_buffers();

private:
  /// Buffers and the cuFFT plan of an image batch's preparation (--fftOnGPU), sized for the
  /// batch's capacity.
  void reserve_fft(const recon::SampleBatch& batch, const recon::GridLayout& layout, int device_id);
};

} // namespace frost::cuda::detail
