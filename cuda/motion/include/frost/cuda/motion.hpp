#pragma once
/// @file motion.hpp
/// @brief The CUDA backend of movie alignment (docs/movie_align.md#the-cuda-backend): a movie resident on
/// one GPU that implements the three backend interfaces of libs/motion, so align_global,
/// align_local and the render loop run unchanged on it:
/// * PairMeasurer (global stage): batched cuFFT R2C of the transform windows, one kernel for
///   crop + low-pass + normalisation + zeroed axes; pair products, batched C2R and a peak kernel
///   per batch of pairs; only a 3x3 window per pair leaves the GPU, finished by refine_peak().
/// * PatchMeasurer (local stage): patch stacks built on the device from the resident frames
///   (batches of patches), then the same spectra and correlation code.
/// * FrameRenderer: B-spline prefilter, bspline3 warp (constant or B-spline field), sums and the
///   dose-weighted sum on the device; other interpolations run on the host after one download.
/// Frames reach the device once. Stored MRC frames (StoredFrameSource) go as the file's bytes:
/// CPU threads read chunks into pinned slots, each chunk is copied and decoded + dark/gain
/// corrected on the device while the threads read the next (a quarter of the float bytes for
/// mode 0). EER movies (EerFrameSource) go as their compressed raw frames, rendered on the
/// device. Other frames are decoded on CPU threads into pinned staging slots, each group
/// uploaded asynchronously while the next group is decoded.
///
/// This header does not include CUDA headers: programs built with the host compiler use it.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/io/eer_stream.hpp"
#include "frost/motion/frame_renderer.hpp"
#include "frost/motion/pair_measurer.hpp"
#include "frost/motion/patch_measurer.hpp"
#include "frost/tuning/policy.hpp"

namespace frost::cuda {

/// Launch shape of the pair-product kernel (`ma_correlate` in docs/tune.md#the-spaces-of-frost-kernels):
/// blocks of block_x x block_y threads over (k_x, k_y) of each pair's half spectrum, each thread doing `tile`
/// elements block_x apart along k_x (tile 1, 2, 4 or 8). The pipeline's default is the best of the exhaustive
/// search (frost_tune run, K3 and Falcon presets), measured faster than the space's default 32 x 32, tile 8
/// (docs/performance.md#fft-advisor-and-tuning); correlate_launch_from() maps any configuration of the space.
struct CorrelateLaunch {
  int tile = 4, block_x = 128, block_y = 1;
};
/// Launch shape of the crop + filter kernel (`fourier_crop_filter` in
/// docs/tune.md#the-spaces-of-frost-kernels): block_x x block_y threads over (k_x, k_y) of each
/// cropped spectrum.
struct CropFilterLaunch {
  int block_x = 32, block_y = 8;
};

/// Tuning of the CUDA movie (defaults are what frost_movie_align uses).
struct CudaMotionOptions {
  int device = 0;
  /// Frames decoded per group into pinned staging (two groups in flight: one uploading, one decoding).
  int upload_group = 4;
  /// Stored frames: bytes per chunk read, copied and decoded at once (0: 2 MiB; at least a row).
  std::size_t upload_chunk_bytes = 0;
  /// Fraction of the free device memory (after the frames) the batches may use (--gpu-mem-fraction).
  double memory_fraction = 0.9;
  int frame_batch = 0; ///< frames per R2C batch (0: from the memory budget, at most 16)
  int pair_batch = 0;  ///< correlation maps per batch (0: from the memory budget, at most 4096)
  int patch_batch = 0; ///< patches per stack batch (0: from the memory budget)
  CorrelateLaunch correlate;   ///< pair products (ma_correlate)
  CropFilterLaunch crop_filter; ///< spectra crop + filter (fourier_crop_filter)
  /// When set (--tune ...), the two launches above come from the tuning cache per problem
  /// (motion_tuning.hpp select_*_launch) and are only the fallback.
  std::optional<tuning::TuningOptions> tuning;
};

/// Per-stage device times and memory of a CUDA movie (for logs and benchmarks).
struct CudaMotionStats {
  double context_ms = 0;      ///< device check, CUDA context and frame allocation (before the upload)
  double upload_ms = 0;       ///< wall time of the upload (read/decode + copy, overlapped)
  double upload_setup_ms = 0; ///< of which: pinned and device staging, references (stored frames)
  double upload_read_ms = 0;  ///< EER: reading the raw frames into the pinned slots (wall)
  double upload_decode_ms = 0; ///< EER: rendering the raw frames and dark/gain (device time)
  double spectra_ms = 0;      ///< frame spectra (wall, synchronised)
  double correlate_ms = 0;    ///< pair products, C2R, peaks (wall, synchronised)
  double patches_ms = 0;      ///< patch stacks + their spectra and correlations (wall)
  double render_ms = 0;       ///< warp, sums, dose weighting, downloads (wall)
  double render_setup_ms = 0;     ///< render: buffers and the dose-weight table (wall)
  double render_prefilter_ms = 0; ///< render: B-spline prefilter of the batches (device time)
  double render_warp_ms = 0;      ///< render: fused warp + sums (device time)
  double render_dose_ms = 0;      ///< render: R2C + dose accumulation (device time)
  double render_batches_ms = 0;   ///< render: first batch start to last batch end (device time;
                                  ///< minus the three above: the device idle between steps)
  double render_finish_ms = 0;    ///< render: downloads and normalisation of the final images (wall)
  std::size_t frame_bytes = 0;      ///< device memory held by the frames
  std::size_t peak_used_bytes = 0;  ///< largest (total − free) device memory seen at checkpoints
  std::size_t correlations = 0;     ///< correlation maps computed
};

/// Writes frame t (0-based within the movie) into `dst` (width·height floats, pinned memory).
/// Called from several CPU threads at once, each with its own t.
using FrameProducer = std::function<void(int t, float* dst)>;

/// The stored bytes of a movie's frames, decoded on the device: MRC modes 0, 1, 2, 6, 12, 101
/// (io::mrc_pixel), then dark and gain (motion::corrected_pixel), bit for bit what
/// motion::MovieReader::read_frame() gives when it has nothing else to do (stored_frames()).
struct StoredFrameSource {
  std::string name;            ///< the movie's file, for messages
  int mode = 2;
  bool swap = false;           ///< big-endian data
  bool mode0_unsigned = false; ///< mode-0 bytes are uint8
  std::int64_t frame_bytes = 0; ///< bytes of one frame: height rows of row_bytes
  std::int64_t row_bytes = 0;
  /// Rows the reader decompresses together (a TIFF strip; 1 for MRC bytes): when a chunk of
  /// rows would cut too many of these units, each read is one whole frame instead.
  std::int64_t decode_rows = 1;
  /// Reads bytes [offset, offset + bytes) of the frames' data (frame t at t·frame_bytes);
  /// called from several CPU threads at once.
  std::function<void(std::int64_t offset, std::size_t bytes, unsigned char* dst)> read;
  View<const float> dark, gain; ///< width x height references (data nullptr: none)
  /// NaN or Inf in the decoded frames is an input error naming `name` and the frame, as in
  /// motion::MovieReader; false only to decode arbitrary bits (the codec parity tests).
  bool reject_non_finite = true;
};

/// The raw frames of an EER movie, decoded and rendered on the device: one thread per raw frame
/// walks its stream (io::for_each_eer_event) and adds each electron to its fraction at
/// io::eer_grid_index, then dark and gain (motion::corrected_pixel): bit for bit what
/// motion::MovieReader::read_frame() gives when it has nothing else to do (eer_raw_frames(); the
/// counts are whole numbers, so the order of the float additions does not matter).
struct EerFrameSource {
  std::string name; ///< the movie's file, for messages
  index_t first_raw = 0, group = 1;
  index_t sensor_width = 0, sensor_height = 0;
  int upsampling = 1;
  io::EerCodes codes;
  std::function<std::size_t(index_t raw)> raw_bytes;              ///< stream bytes of a raw frame
  std::function<void(index_t raw, unsigned char* dst)> read_raw;  ///< several CPU threads at once
  std::function<void(index_t raw)> corrupt; ///< a raw frame the device found corrupt (contributes nothing)
  View<const float> dark, gain; ///< render-grid references (data nullptr: none)
};

class CudaMovie final : public motion::PairMeasurer, public motion::PatchMeasurer, public motion::FrameRenderer {
public:
  /// @brief Uploads frames produced by `produce` (count frames of width x height; item i is
  /// absolute frame first_frame + i). @throw frost::Error(Device) when the device is missing or
  /// the frames do not fit in its memory (with the numbers).
  CudaMovie(int count, motion::Size2 size, int first_frame, const FrameProducer& produce,
            const CudaMotionOptions& options = {});
  /// Uploads stored frames as their bytes and decodes them on the device (see StoredFrameSource).
  CudaMovie(int count, motion::Size2 size, int first_frame, const StoredFrameSource& source,
            const CudaMotionOptions& options = {});
  /// Uploads the raw frames of an EER movie and renders them on the device (see EerFrameSource).
  CudaMovie(int count, motion::Size2 size, int first_frame, const EerFrameSource& source,
            const CudaMotionOptions& options = {});
  /// Uploads host frames (copied through the pinned slots by CPU threads).
  CudaMovie(const std::vector<View<const float>>& frames, int first_frame, const CudaMotionOptions& options = {});
  ~CudaMovie() override;
  CudaMovie(const CudaMovie&) = delete;
  CudaMovie& operator=(const CudaMovie&) = delete;

  int frame_count() const override;
  motion::Size2 frame_size() const override;
  Image<fft::Complex> spectra(const motion::WorkingSizes& sizes, View<const float> filter) override;
  std::vector<motion::PairMeasurement> measure_pairs(const motion::WorkingSizes& sizes, View<const float> filter,
                                                     const std::vector<motion::FramePair>& pairs,
                                                     const motion::CorrelationOptions& options) override;
  std::vector<std::vector<motion::PairMeasurement>> measure_patches(
      const motion::PatchOffsets& offsets, const std::vector<motion::PatchCorner>& corners, int patch_size,
      const motion::WorkingSizes& sizes, View<const float> filter, const std::vector<motion::FramePair>& pairs,
      const motion::CorrelationOptions& options) override;
  motion::FrameSums render(const motion::MotionModel& model, motion::SumRange range,
                           motion::InterpolationMethod method, const motion::SumOptions& options) override;

  /// @brief Creates the CUDA context of `device` and its FFT planner, the fixed start-up cost
  /// of a CudaMovie, so that a program can pay it on another thread while it opens the
  /// movie. @throw frost::Error(Device) when the device does not exist.
  static void prepare_device(int device);

  /// The frames as they are on the device (tests: the upload is exact).
  Image<float> download_frames() const;
  const CudaMotionStats& stats() const;
  /// "cuda:0 NVIDIA H100 80GB HBM3 (cc 9.0)".
  std::string describe() const;

  /// The device state (opaque; named here so the stage files of cuda/motion can use it).
  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace frost::cuda
