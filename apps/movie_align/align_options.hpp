#pragma once
// The command line of frost_movie_align (docs/movie_align.md#command-line) turned into library settings and
// output paths. Options keep Xmipp's FlexAlign names; new ones are kebab-case.
#include <optional>
#include <string>
#include <vector>

#include "frost/cli/params.hpp"
#include "frost/motion/motion_backend.hpp"
#include "frost/motion/movie_pipeline.hpp"

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
  motion::MovieAlignSettings align;     ///< the pipeline's settings (docs/movie_align.md#command-line)
  motion::MotionBackendOptions backend; ///< --low-memory, --gpu-mem-fraction, --tune
  int gpu = -1;                         ///< --device <id>: CUDA device (-1 = the CPU)
  int psd_size = 512;
  int thumbnail_size = 512;             ///< --thumbnail-size: longest side of --othumbnail
  bool float16 = false;
  bool overwrite = false;               ///< batch mode: redo movies whose outputs exist
  std::string storage;                  ///< --storage resolved to the FFT cache directory ("" = none)
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
