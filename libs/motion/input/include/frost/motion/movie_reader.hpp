#pragma once
/// @file movie_reader.hpp
/// @brief The movie as the alignment sees it (docs/movie_align.md#loading-frames): frames of an
/// MRC/MRCS, TIFF or EER file, selected by --frameRange, gain/dark corrected, bad pixels replaced,
/// Fourier binned, as float32.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/io/image_info.hpp"
#include "frost/motion/bad_pixels.hpp"
#include "frost/motion/gain_transform.hpp"

namespace frost::motion {

/// @brief Command-line choices that shape the loaded frames (names as in docs/movie_align.md#command-line).
struct MovieReadOptions {
  index_t first_frame = 0;  ///< --frameRange F (0-based)
  index_t last_frame = -1;  ///< --frameRange L (inclusive; -1 = last frame)
  double bin = 1.0;         ///< --bin b (>= 1, real)
  std::string gain;         ///< --gain
  std::string dark;         ///< --dark
  std::string defects;      ///< --defects (x y w h text or image)
  GainTransform gain_transform; ///< --gain-rot / --gain-flip
  bool gain_invert = false;     ///< --gain-invert
  double hot_pixel_sigma = 0;   ///< --hot-pixel-sigma k (0 = off)
  std::uint64_t seed = 0;       ///< --seed (bad-pixel replacement draws)
  bool tiff_flip_y = true;      ///< --tiff-flip-y
  io::Switch tiff_4bit = io::Switch::Auto; ///< --tiff-4bit
  int eer_upsampling = 1;             ///< --eer-upsampling 1|2|4
  index_t eer_frames_per_fraction = 0; ///< --eer-group g (wins over eer_fractions)
  index_t eer_fractions = 40;          ///< --eer-fractions F
  double eer_dose_per_fraction = 0;    ///< --eer-dose-per-fraction d [e/Å²] (wins over eer_fractions)
  int threads = 0;                     ///< --threads (0 = frost::num_threads())
};

/// @brief How the selected frames are stored when the only host work they need is decoding and
/// dark/gain (no binning, no bad pixels, no hot-pixel detection): a device can take the stored
/// samples and convert them itself (io::mrc_pixel, then corrected_pixel). An MRC movie (items not
/// permuted) gives its file bytes; a striped TIFF movie its decompressed rows, flipped as
/// read_frame() flips them, described by the MRC mode of the same samples
/// (docs/movie_align.md#loading-frames).
struct StoredFrames {
  std::int32_t mode = 2;        ///< MRC mode (0, 1, 2, 6, 12, 101)
  bool swap = false;            ///< big-endian data
  bool mode0_unsigned = false;  ///< mode-0 bytes are uint8
  std::int64_t frame_bytes = 0; ///< bytes of one frame (rows of row_bytes, no gaps)
  std::int64_t row_bytes = 0;   ///< bytes of one row (mode 101: ceil(width/2))
  /// Rows the host decompresses as one unit (a TIFF strip; 1 for MRC): a read of a few rows of
  /// a large unit costs the whole unit, so readers should then take whole frames.
  std::int64_t decode_rows = 1;
};

/// @brief The raw frames of an EER movie's selected fractions when read_frame() would only
/// render them and apply dark and gain (as for StoredFrames): a device can decode the streams
/// itself with io::for_each_eer_event and io::eer_grid_index (docs/movie_align.md#loading-frames).
/// Fraction t of the selection is the sum of raw frames first_raw + t·group ... + group − 1.
struct EerRawFrames {
  const io::EerReader* reader = nullptr; ///< raw_frame_bytes(), read_raw_frame(), note_corrupt_frame()
  index_t first_raw = 0;
  index_t group = 1;
  index_t sensor_width = 0, sensor_height = 0;
  int upsampling = 1;
  io::EerCodes codes;
};

/// @brief Opens a movie and yields its corrected, binned frames.
///
/// Frames are decoded in parallel (OpenMP, one frame per thread). Memory: the result holds the
/// selected frames at the binned size; the raw-size movie is never held twice: without hot-pixel
/// detection each thread decodes into one frame-sized work buffer; with it the corrected raw
/// frames are held once (in the result itself when b = 1) until the sum has been thresholded.
class MovieReader {
public:
  MovieReader(const std::string& path, const MovieReadOptions& options);
  ~MovieReader();
  MovieReader(const MovieReader&) = delete;
  MovieReader& operator=(const MovieReader&) = delete;

  /// Facts about the file (EER: fractions at the render grid, as items).
  const io::ImageInfo& file_info() const;
  bool is_eer() const;
  /// EER: raw frames per fraction as grouped (0 for other movies).
  index_t eer_frames_per_fraction() const;
  /// EER: dose per raw frame [e/Å²] from the file's metadata, 0 when unknown (or not EER).
  double eer_raw_frame_dose() const;
  /// Absolute index (0-based) of the first selected frame.
  const std::string& path() const;
  index_t first_frame() const;
  /// Number of selected frames.
  index_t frame_count() const;
  /// Size of a raw frame (EER: the render grid).
  index_t raw_width() const;
  index_t raw_height() const;
  /// Size of a loaded frame (binned): {X_b, Y_b, 1, 1}.
  Shape frame_shape() const;
  /// Effective binning per axis, raw / binned size (shifts are scaled back by these).
  double scale_x() const;
  double scale_y() const;
  /// The bad-pixel mask at the raw size (defects, zero gain and, after read_all(), hot pixels).
  const Image<std::uint8_t>& bad_pixel_mask() const;
  /// What hot-pixel detection found (zeros until read_all() ran it).
  const HotPixelReport& hot_pixels() const;
  /// True with --hot-pixel-sigma: a frame is final only once read_all() has thresholded the sum.
  bool detects_hot_pixels() const;

  /// @brief Frame `t` (0-based within the selection) corrected and binned into `out`
  /// (frame_shape().total() floats). Bad pixels known so far are replaced. Thread-safe.
  void read_frame(index_t t, float* out) const;
  /// @brief The storage of the selected frames when read_frame() would only decode them and
  /// apply dark() and gain(); nullopt otherwise (EER, tiled or 32-bit integer TIFF, binning,
  /// defects, zero-gain pixels, hot-pixel detection, permuted volumes).
  std::optional<StoredFrames> stored_frames() const;
  /// @brief An EER movie's raw frames under the same conditions as stored_frames() (no binning,
  /// bad pixels or hot-pixel detection); nullopt otherwise and for other movies.
  std::optional<EerRawFrames> eer_raw_frames() const;
  /// @brief Bytes [offset, offset + bytes) of the selected frames' stored data (frame t starts
  /// at t·frame_bytes); only when stored_frames() has a value. TIFF: offset and bytes are whole
  /// rows. Thread-safe: TIFF strips decode in parallel.
  void read_stored(std::int64_t offset, std::size_t bytes, unsigned char* dst) const;
  /// The dark and gain references at the raw size, as read_frame() applies them (empty: none).
  const Image<float>& dark() const;
  const Image<float>& gain() const;

  /// @brief All selected frames, {X_b, Y_b, 1, frame_count()}, decoded in parallel; runs
  /// hot-pixel detection first when options ask for it.
  Image<float> read_all();

private:
  friend class CountFrames; // --low-memory: count_frames.hpp
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// @brief The message for a frame (0-based index in the file) holding NaN or Inf pixels, shared
/// by the host reader and the device decoder.
std::string non_finite_frame_problem(index_t frame);

} // namespace frost::motion
