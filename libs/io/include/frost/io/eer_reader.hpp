#pragma once
/// @file eer_reader.hpp
/// @brief Thermo Fisher EER movies (docs/formats.md#eer, docs/movie_align.md#movie-formats): items are
/// fractions of G raw frames, rendered as electron counts at 1, 2 or 4 times the sensor grid. Needs libtiff.
#include <memory>
#include <string>

#include "frost/io/eer_decode.hpp"
#include "frost/io/image_source.hpp"

namespace frost::io {

/// @brief True when frost was built with EER support (it needs libtiff for the container).
bool eer_supported();

/// @brief How raw EER frames become items.
struct EerOptions {
  int upsampling = 1; ///< render grid = sensor size * upsampling; 1, 2 or 4
  /// Raw frames summed per fraction (RELION --eer_grouping). 0: derived from `fractions`.
  index_t frames_per_fraction = 0;
  /// Number of fractions (Warp, Scipion): G = floor(N / F). Used when frames_per_fraction is 0;
  /// when both are 0 every raw frame is one item.
  index_t fractions = 0;
  /// Dose per fraction [e/Å²] (teamtomo/eerfile): G = round(d / d_raw) with d_raw, the dose per
  /// raw frame, from the metadata XML (an Input error when it lacks the items). Used when
  /// frames_per_fraction is 0; wins over `fractions`. 0: off.
  double dose_per_fraction = 0;
  /// Sensor size assumed for legacy (non-TIFF) files, whose frames carry no size.
  index_t legacy_width = 4096, legacy_height = 4096;
};

/// @brief An EER file opened for fraction-by-fraction reading.
///
/// Containers: TIFF (classic or BigTIFF) whose pages carry compression 65000, 65001 or 65002
/// (65002 reads its bit sizes from tags 65007-65009, 7 + 2 + 2 where a tag is absent; pages
/// with compression 1, a TIA sum, are skipped), or a legacy raw file whose frames are
/// found by walking the `ThermoFisherECComprOK000` footers back from the end (8-bit codes).
/// The TIFF structure is read once with libtiff; frames are then read with pread, so read() is
/// safe from many threads at once. The remainder of N raw frames that does not fill a fraction is
/// dropped with a warning; a corrupt raw frame contributes nothing and is reported with a
/// warning (RELION skips such frames too). Item shape: (W*u) x (H*u); counts as floats; rows
/// are not flipped. info().format is Tiff and info().sample UInt16 (summed counts).
class EerReader final : public ImageSource {
public:
  explicit EerReader(const std::string& path, const EerOptions& options = {});
  ~EerReader() override;

  const ImageInfo& info() const override;
  /// Renders fraction `index` (the sum of its raw frames) into `out`.
  void read(index_t index, float* out) const override;
  using ImageSource::read;

  /// Number of raw (hardware) frames in the file.
  index_t raw_frames() const;
  /// Raw frames per fraction, G.
  index_t frames_per_fraction() const;
  /// Physical sensor size (4096 or 2048 for real files).
  index_t sensor_width() const;
  index_t sensor_height() const;
  int upsampling() const;
  /// Encoding of the first frame (all frames must share it).
  const EerEncoding& encoding() const;
  bool legacy() const;
  /// Acquisition metadata XML of the first page (TIFF tag 65001), "" when absent.
  const std::string& metadata_xml() const;
  /// Dose per raw frame [e/Å²] from the metadata XML, 0 when it does not say
  /// (EerAcquisition::raw_frame_dose).
  double raw_frame_dose() const;

  /// @brief Adds the counts of raw frame `raw` (0-based) to `grid`; false (and a warning) when
  /// the frame is corrupt, leaving `grid` unchanged.
  bool add_raw_frame(index_t raw, float* grid) const;
  /// Corrupt raw frames met so far (each read counts again).
  index_t corrupt_frames_seen() const;

  /// @brief Bytes of raw frame `raw`'s stream, and the stream itself (pread; any number of
  /// threads): for a backend that decodes the streams itself (the CUDA movie upload).
  std::size_t raw_frame_bytes(index_t raw) const;
  void read_raw_frame(index_t raw, unsigned char* dst) const;
  /// @brief Reports raw frame `raw` as corrupt the way add_raw_frame does (a warning naming the
  /// file and frame, and the count), for a backend whose own decoder found it so.
  void note_corrupt_frame(index_t raw) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace frost::io
