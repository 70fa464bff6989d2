#pragma once
// The command line of frost_movie_align (docs/movie_align.md#command-line) turned into library settings and
// output paths. Options keep Xmipp's FlexAlign names; new ones are kebab-case.
#include <optional>
#include <string>
#include <vector>

#include "frost/cli/params.hpp"
#include "frost/motion/control_points.hpp"
#include "frost/motion/dose_weighting.hpp"
#include "frost/motion/frame_accumulator.hpp"
#include "frost/motion/global_settings.hpp"
#include "frost/motion/interpolation_method.hpp"
#include "frost/motion/local_settings.hpp"
#include "frost/motion/movie_reader.hpp"
#include "frost/tuning/policy.hpp"

namespace frost::movie_align {

/// Where one movie's results go; empty = not written.
struct OutputPaths {
  std::string alignment;    ///< -o (.star frost layout, .xmd Xmipp layout)
  std::string micrograph;   ///< --oavg (dose weighted with --dose-weight)
  std::string micrograph_nodw; ///< --oavg-nodw
  std::string initial;      ///< --oavgInitial
  std::string aligned_stack;///< --oaligned
  std::string halves_root;  ///< --ohalves ROOT -> ROOT_EVN.mrc, ROOT_ODD.mrc
  std::string psd;          ///< --opsd
  std::string relion_motion;///< --ostar_motion
  std::string thumbnail;    ///< --othumbnail (PNG of the --oavg micrograph)
  std::string psd_picture;  ///< --opsd-png (PNG of the --opsd spectrum)
  std::string drift_plot;   ///< --odrift-plot (PNG: global trajectory, local model on the patch grid)
  /// The gain and defect image as applied (oriented, inverted), which the --ostar_motion STAR
  /// names instead of the originals (as RELION does); "" when the originals are named. Shared by
  /// every movie of a batch: written with the first movie aligned (write_reference_copies).
  std::string gain_copy, defects_copy;
  bool write_reference_copies = true;
};

/// One output file and the option that names it ("--oavg", "--ohalves (even)").
struct NamedPath {
  std::string option, path;
};
/// Every file `out` names (the two --ohalves files expanded); with `shared`, also the
/// reference copies (gain_copy, defects_copy).
std::vector<NamedPath> output_files(const OutputPaths& out, bool shared);

/// Everything one alignment needs besides the movie path and the outputs.
struct AlignOptions {
  motion::MovieReadOptions read;       ///< frame range, gain, dark, defects, binning, EER, TIFF
  std::optional<double> pixel_size;    ///< --sampling (else the file header)
  int sum_first = -1, sum_last = -1;   ///< --frameRangeSum (-1: as the aligned range)
  bool sum_range_given = false;
  motion::GlobalSettings global;       ///< pixel_size is filled per movie (Ts·b)
  bool local = true;                   ///< !--skipLocalAlignment
  motion::LocalSettings local_settings;///< correlation filled per movie
  bool control_points_auto = false;    ///< --controlPoints auto
  double max_local_rmsd_raw = 2.0;     ///< --max-local-rmsd [raw px]
  motion::InterpolationMethod interp = motion::InterpolationMethod::BSpline3;
  bool dose_weight = false;
  motion::DoseSchedule dose;
  bool dose_known = false;             ///< --dose-per-frame given (written to the STAR)
  motion::SumNormalization normalization = motion::SumNormalization::Sum;
  int psd_size = 512;
  int thumbnail_size = 512;            ///< --thumbnail-size: longest side of --othumbnail
  bool float16 = false;
  bool overwrite = false;              ///< batch mode: redo movies whose outputs exist
  int gpu = -1;                        ///< --device <id>: CUDA device (-1 = the CPU)
  double gpu_memory_fraction = 0.9;    ///< --gpu-mem-fraction
  bool low_memory = false;             ///< --low-memory: integer counts in RAM, corrected on the fly
  std::string storage;                 ///< --storage resolved to the FFT cache directory ("" = none)
  tuning::TuningOptions tuning;        ///< --tune ...: the GPU kernels' launches from the cache
};

/// Declares the options of docs/movie_align.md#command-line on `p` (the device option is added by
/// the program).
void define_align_options(cli::Params& p);
/// Cross-option checks that need no file; frost::Error(Usage) naming the option.
void validate_align_options(const cli::Params& p);
/// The parsed options.
AlignOptions align_options(const cli::Params& p);
/// The output paths as given on the command line (templates in batch mode), with the reference
/// copies the --ostar_motion STAR names (reference_copies).
OutputPaths output_paths(const cli::Params& p);

/// @brief Where the gain and defect image as applied go when --ostar_motion is written with
/// --gain-rot/--gain-flip/--gain-invert (a defect image: with a rotation or flip): beside the
/// motion STAR (in batch mode in the pattern's folder before its first key), named
/// `<gain name>_rot<k>_flip<f>[_inverted].mrc`; RELION's polishing reads the references it is
/// given as they are. Empty paths when the originals can be named.
void reference_copies(const cli::Params& p, OutputPaths& out);

} // namespace frost::movie_align
