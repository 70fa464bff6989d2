#pragma once
/// @file settings.hpp
/// @brief What a Fourier reconstruction is asked to do (docs/reconstruct_fourier.md#command-line), and the
/// grid sizes that follow from it (docs/reconstruct_fourier.md#grid-layout).
#include <cstdint>
#include <string>

#include "frost/reconstruction/precision.hpp"
#include "frost/reconstruction/blob.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// How the blob weight of one tap is obtained (`--interp`).
enum class Interpolation { Lookup, Dynamic };
/// Final correction of the kernel's apodisation (`--gridding`, step 7 of
/// docs/reconstruct_fourier.md#finalisation).
enum class Gridding { Kb, Xmipp };
/// The insertion kernel (`--kernel`, docs/reconstruct_fourier.md#the-separable-kernel). Blob:
/// Xmipp's radial blob, gathered per voxel. Separable: the product of three 1-D Kaiser-Bessel
/// windows with the blob's a, m and alpha, scattered from the sample pixels.
enum class Kernel { Blob, Separable };
/// CTF handling (docs/reconstruct_fourier.md#ctf-modes). None: images used as they are.
enum class CtfMode { None, Invert, Wiener };

/// How symmetry is applied (docs/reconstruct_fourier.md#symmetry): every image inserted once per
/// group element (Xmipp, default), or inserted once and the folded grids symmetrised by
/// interpolation (RELION, `--sym_mode grid`).
enum class SymMode { Insert, Grid };

/// Everything the algorithm needs besides the images and their poses.
struct ReconstructionSettings {
  int box = 0;                  ///< N, image side [px]
  double padding = 2.0;         ///< padded image size P = round(N * padding)
  int padded_size = 0;          ///< P when set (> 0) explicitly, e.g. by the FFT size advisor
  double max_resolution = 0.5;  ///< fmax, digital frequency (0.5 = Nyquist)
  BlobParams blob;              ///< kernel
  bool fast = false;            ///< nearest-neighbour insertion + one blob convolution
  Kernel kernel = Kernel::Blob; ///< precise mode: radial blob (gather) or separable (scatter)
  Interpolation interp = Interpolation::Lookup;
  Gridding gridding = Gridding::Kb;
  bool xmipp_compat = false;    ///< drop the Nyquist column kx = M/2 as Xmipp does
  CtfMode ctf = CtfMode::None;
  double min_ctf = 0.01;        ///< invert mode: threshold below which the CTF is not inverted
  bool phase_flipped = false;   ///< invert mode: images already phase-flipped (c = |c|)
  bool only_flip_phases = false;///< wiener mode: sign(CTF) only (RELION --only_flip_phases)
  bool ctf_premultiplied = false;///< wiener mode: data already multiplied by the CTF
  bool intact_first_peak = false;///< wiener mode: CTF = 1 up to its first peak
  double pixel_size = 1.0;      ///< [A/px], for the CTF frequencies and the output header
  double wiener_eps = 0.0;      ///< added to W at the division (wiener mode)
  bool use_weights = false;     ///< per-image weights from the metadata
  SymMode sym_mode = SymMode::Insert;
};

/// @brief The grid sizes (docs/reconstruct_fourier.md#grid-layout) for one set of settings.
/// P = padded image size; M = 2 cr with cr = ceil(ceil(P fmax 2) / 2); the accumulation cube has
/// (M+1)^3 voxels with frequency k = v - M/2; a stored sample is fx x fy complex values (fx =
/// M/2 + 1 columns kx = 0..M/2, or M/2 in Xmipp compatibility; fy = M rows, ky = row - M/2).
struct GridLayout {
  int box = 0;       ///< N
  int padded = 0;    ///< P
  int cr = 0;        ///< conserved rows
  int M = 0;         ///< 2 cr
  int fx = 0;        ///< sample columns
  int fy = 0;        ///< sample rows
  double fmax = 0.5; ///< digital frequency limit
  /// Voxels per side of the full cube (M + 1).
  int side() const noexcept { return M + 1; }
  /// Columns of the folded half grid (kx = 0..M/2).
  int half_x() const noexcept { return M / 2 + 1; }
  std::int64_t cube_voxels() const noexcept { return std::int64_t(side()) * side() * side(); }
  std::int64_t half_voxels() const noexcept { return std::int64_t(half_x()) * side() * side(); }
  std::int64_t sample_pixels() const noexcept { return std::int64_t(fx) * fy; }
  /// (fmax P)^2: sample values beyond this squared radius are zero.
  double max_frequency_sq() const noexcept { return (fmax * padded) * (fmax * padded); }
};

/// @brief Layout for `s`. frost::Error(Usage) for box < 2, padding < 1, fmax outside (0, 0.5],
/// or a padded size below the box.
GridLayout make_grid_layout(const ReconstructionSettings& s);

/// @brief How far from its slice a sample's kernel reaches (grid samples): a for the blob, a sqrt(3)
/// for the separable kernel (the corner of its a-cube), 0 in fast mode: the b of the traverse
/// spaces.
double insertion_reach(const ReconstructionSettings& s);

/// How far beyond the sample's last column data can land in the grid: insertion_reach, or a in
/// fast mode (its blob convolution). The support radius of the grids and the grid symmetrisation
/// are built from it.
double grid_reach(const ReconstructionSettings& s);

/// Largest kernel radius of the separable kernel: its window is 4 samples per axis.
inline constexpr double kSeparableMaxRadius = 2.0;

/// One line for the log: "N 128, P 256, M 256, sample 129x256, cube 257^3".
std::string describe(const GridLayout& layout);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
