#pragma once
/// @file particle_table.hpp
/// @brief Reads the particle metadata of a reconstruction (docs/reconstruct_fourier.md#particle-metadata):
/// RELION STAR 3.0/3.1/5 or Xmipp .xmd, labels detected, one ParticleRecord per usable row.
#include <string>
#include <vector>

#include "frost/reconstruction/particle.hpp"

namespace frost::app {

struct ParticleTableOptions {
  bool need_ctf = false;      ///< read CTF parameters; rows without them are an error
  bool use_weights = false;   ///< read `weight` (Xmipp) or, with fom_weighting, rlnParticleFigureOfMerit
  bool fom_weighting = false;
  int klass = 0;              ///< keep only rows of this class (rlnClassNumber / ref3d); 0 = all
  double sampling = 0;        ///< --sampling [A/px]; 0 = from the file
  bool missing_angles_zero = false; ///< a missing angle label means 0 (else an input error)
};

struct ParticleTable {
  std::string path;
  bool relion = false;                      ///< RELION labels (else Xmipp)
  std::vector<recon::ParticleRecord> particles;
  double pixel_size = 0;                    ///< [A/px]; 0 when neither file nor --sampling has it
  std::string pixel_size_source;            ///< where pixel_size came from, for the log
  std::vector<std::string> missing_angles;  ///< angle labels absent (taken as 0 by the option)
  /// Image size [px] the metadata states for each row (RELION rlnImageSize, of the optics
  /// group or the row); empty when it states none. Checked against the stacks.
  std::vector<long long> stated_image_size;
  std::string stated_image_size_label;      ///< "rlnImageSize" or "rlnImageSize of data_optics"
  std::size_t rows = 0;                     ///< rows in the file
  std::size_t disabled = 0, other_class = 0;///< rows dropped and why
  bool has_subsets = false;                 ///< rlnRandomSubset present
};

/// @brief Reads `path`. frost::Error(Input) naming the file (and row where it applies) for: no
/// image label, malformed image addresses, missing angle labels (unless
/// missing_angles_zero), non-finite angles/shifts/weights, negative weights, missing CTF
/// labels when needed, several pixel sizes (optics groups), and no usable rows. Image paths
/// are resolved as meta::resolve_data_path() does.
ParticleTable read_particle_table(const std::string& path, const ParticleTableOptions& options);

} // namespace frost::app
