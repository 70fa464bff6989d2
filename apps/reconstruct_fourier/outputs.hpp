#pragma once
/// @file outputs.hpp
/// @brief What frost_reconstruct_fourier writes (docs/reconstruct_fourier.md#outputs): maps as
/// float32 MRC with the pixel size set, the half-map FSC as a STAR table and as text, and with
/// --pictures PNGs of the map's central sections and of the FSC curves; all atomic.
#include <string>

#include "frost/core/image.hpp"
#include "frost/reconstruction/fsc.hpp"

namespace frost::app {

/// "<dir>/<name>" without the .mrc/.map extension: the root for half maps and FSC files.
std::string output_root(const std::string& map_path);

/// @brief frost::Error(Runtime) naming `what` and `path` when `volume` holds a non-finite voxel.
/// What is written is checked, not only what was read: inputs that could overflow are refused
/// when read, and this is the net below that.
void require_finite(const Image<float>& volume, const std::string& what, const std::string& path);

/// @brief Writes a map (float32 MRC, pixel size set) after require_finite(); `what` names it in
/// the error ("half map 1").
void write_map(const std::string& path, const Image<float>& volume, double pixel_size, const std::string& label,
               const std::string& what);

/// data_fsc with rlnSpectralIndex, rlnResolution [1/A], rlnAngstromResolution,
/// rlnFourierShellCorrelation (RELION's postprocess labels), atomically.
void write_fsc_star(const std::string& path, const recon::FscCurve& fsc);
/// Plain text: shell, frequency [1/A], resolution [A], FSC; header lines start with '#'.
void write_fsc_text(const std::string& path, const recon::FscCurve& fsc,
                    const std::string& what = "between the half maps");

/// PNG of the central xy, xz and yz sections of the map, side by side (picture::central_sections).
void write_sections_png(const std::string& path, const Image<float>& volume);
/// PNG of the FSC against spatial frequency [1/A] with dashed lines at 0.143 and 0.5.
void write_fsc_png(const std::string& path, const recon::FscCurve& fsc);

} // namespace frost::app
