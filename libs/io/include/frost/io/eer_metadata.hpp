#pragma once
/// @file eer_metadata.hpp
/// @brief The acquisition facts of an EER file's metadata XML (TIFF tag 65001 of the first page,
/// docs/formats.md#eer-container), and the dose per raw frame they give
/// (docs/formats.md#eer-fractions-and-upsampling, --eer-dose-per-fraction).
#include <optional>
#include <string>

#include "frost/core/shape.hpp"

namespace frost::io {

/// @brief What an EER acquisition XML says (each item absent when the XML lacks it or it is not
/// a finite number).
///
/// Thermo Fisher writes `<item name="totalDose" unit="e/pixel">…</item>` entries; element form
/// (`<totalDose>…</totalDose>`, nested `<sensorPixelSize><height>…`) is read too. The pixel size
/// is the one at the specimen, in metres (teamtomo/eerfile reads it so: e/pixel over its area
/// gives e/Å²).
struct EerAcquisition {
  std::optional<index_t> frames;       ///< numberOfFrames
  std::optional<double> total_dose;    ///< totalDose [e/pixel]
  std::optional<double> dose_rate;     ///< meanDoseRate [e/pixel/s]
  std::optional<double> exposure_time; ///< exposureTime [s]
  std::optional<double> pixel_height;  ///< sensorPixelSize.height [m]
  std::optional<double> pixel_width;   ///< sensorPixelSize.width [m]

  /// @brief Dose per raw frame [e/Å²]: totalDose (else meanDoseRate · exposureTime) over
  /// numberOfFrames (else `file_frames`) and the pixel area; nullopt when an item is missing or
  /// the pixel size is not a specimen pixel size (1e-12 m to 1e-8 m).
  std::optional<double> raw_frame_dose(index_t file_frames) const;
  /// @brief The items raw_frame_dose() lacks, for an error message ("" when it has them all).
  std::string missing_for_dose() const;
};

/// @brief Reads the items of an EER metadata XML; unknown items and malformed text are ignored
/// (an empty result for text that is not XML).
EerAcquisition parse_eer_metadata(const std::string& xml);

/// @brief An acquisition XML in the cameras' item form with what a simulated movie knows:
/// numberOfFrames, the sensor size, totalDose [e/pixel] and sensorPixelSize [m] from `pixel_size`
/// [Å] (the items parse_eer_metadata reads, so the dose per raw frame can be derived).
std::string eer_metadata_xml(index_t raw_frames, index_t width, index_t height, double total_dose, double pixel_size);

} // namespace frost::io
