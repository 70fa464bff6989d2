#pragma once
/// @file particles.hpp
/// @brief Particle-file helpers: which block holds the particles, optics-group joins and
/// pixel sizes for every RELION version (docs/formats.md#particle-files).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frost/metadata/block.hpp"
#include "frost/metadata/metadata_file.hpp"

namespace frost::meta {

/// @brief RELION 3.0 pixel size in Å: rlnDetectorPixelSize [µm] · 10⁴ / rlnMagnification.
/// frost::Error(Input) unless both are positive.
double relion30_pixel_size(double detector_pixel_size_um, double magnification);

/// @brief The particle table: data_particles, else data_images (RELION 3.0), else the first
/// table that is not data_optics. frost::Error(Input) when there is none.
const Block& particle_block(const MetadataFile& file);
Block& particle_block(MetadataFile& file);

/// @brief For each particle row, the row of its optics group in `optics` (join on
/// rlnOpticsGroup). Particles without rlnOpticsGroup join the only group when there is one.
/// frost::Error(Input) naming the particle row for a group missing from data_optics.
std::vector<std::size_t> optics_rows(const Block& optics, const Block& particles);

/// @brief An optics label's value for every particle (e.g. rlnImagePixelSize, rlnVoltage).
std::vector<double> optics_doubles(const Block& optics, const Block& particles, std::string_view label);

/// @brief Pixel size [Å] of every particle: data_optics rlnImagePixelSize (3.1+), else the
/// particle table's rlnImagePixelSize, else rlnDetectorPixelSize/rlnMagnification (3.0), else
/// Xmipp's samplingRate column. frost::Error(Input) when the file has none of these (the
/// caller then needs --sampling).
std::vector<double> particle_pixel_sizes(const MetadataFile& file);
/// @brief The same for the table `particles` of `file` (a `block@file` choice; data_optics, when
/// the file has one and `particles` is not it, joins on rlnOpticsGroup).
std::vector<double> particle_pixel_sizes(const MetadataFile& file, const Block& particles);

/// @brief The one pixel size [Å/px] of a file's particle images, whatever the dialect: the
/// labels particle_pixel_sizes() reads (RELION optics or particle rlnImagePixelSize, RELION 3.0
/// detector pixel size and magnification, Xmipp samplingRate). Nothing when the file names no
/// pixel size (the caller then needs an option or a default it states). frost::Error(Input)
/// naming the file and row for a value that is not a positive finite number, or when
/// particles have different pixel sizes (optics groups frost would have to rescale).
std::optional<double> particle_pixel_size(const MetadataFile& file);
/// @brief The same for the table `particles` of `file` (a `block@file` choice, which need not be
/// particle_block()); nothing also for a table without rows.
std::optional<double> particle_pixel_size(const MetadataFile& file, const Block& particles);

/// @brief Per-particle projection pose, whatever the dialect.
struct ParticlePoses {
  std::vector<double> rot, tilt, psi;   ///< degrees; 0 where the labels are absent
  std::vector<double> shift_x, shift_y; ///< pixels of the particle images (Xmipp sign = RELION sign)
  /// The angle labels the table lacks, in the table's dialect (e.g. "rlnAngleTilt"), whose
  /// values above are 0. A projection needs all three: a program refuses a table with missing
  /// angles unless the user says that a missing angle means 0 (missing_angles_error()).
  std::vector<std::string> missing_angles;
};

/// @brief Poses of a particle table. RELION (rlnImageName, or labels starting with `rln` and no
/// Xmipp `image`): rlnAngleRot/Tilt/Psi,
/// rlnOriginX/YAngst divided by the particle's pixel size, else rlnOriginX/Y in pixels (3.0).
/// Xmipp: angleRot/Tilt/Psi and shiftX/Y (legacy names accepted) with `flip` folded in
/// (docs/formats.md#xmipp-and-relion-mapping). `pixel_sizes` (one per row) is needed only for Å origins;
/// frost::Error(Input) when they are needed and missing.
/// The legacy names are rot/tilt/psi and Xoff/Yoff; a current name wins over its alias. Absent
/// shifts are 0 (centred particles); absent angles are 0 and listed in
/// ParticlePoses::missing_angles.
ParticlePoses particle_poses(const Block& particles, const std::vector<double>& pixel_sizes = {});

/// @brief The message of a table whose poses lack angles: "no rlnAngleTilt column: a projection
/// needs all three angles (give `option` if a missing angle means 0)". Empty when none is missing.
std::string missing_angles_error(const ParticlePoses& poses, const std::string& option);

/// @brief Optics groups derived from a RELION 3.0 particle table.
struct DerivedOptics {
  Block optics;                    ///< data_optics: rlnOpticsGroup, rlnOpticsGroupName and the
                                   ///< voltage/Cs/Q0/pixel-size labels the particles carry
  std::vector<std::int64_t> group; ///< 1-based optics group of each particle row
};

/// @brief One optics group per distinct (rlnVoltage, rlnSphericalAberration,
/// rlnAmplitudeContrast, pixel size) combination, numbered in order of first appearance, as
/// frost's implicit conversion of 3.0 files (docs/formats.md#particle-files). Labels the table
/// lacks are left out.
DerivedOptics derive_relion30_optics(const Block& particles);

} // namespace frost::meta
