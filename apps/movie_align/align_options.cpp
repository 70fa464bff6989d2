#include "align_options.hpp"

#include <cstdlib>
#include <string>
#include <vector>

#include "batch.hpp"
#include "fft_storage.hpp"
#include "frost/core/error.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/motion/defects.hpp"
#include "frost/picture/png.hpp"
#include "frost/tuning/options.hpp"

namespace frost::movie_align {

namespace {

const char* kIo = "Input/output";
const char* kMovie = "Movie";
const char* kGlobal = "Global alignment";
const char* kLocal = "Local alignment";
const char* kSum = "Micrograph";

bool yes(const std::string& v) { return v == "yes"; }

} // namespace

void define_align_options(cli::Params& p) {
  p.text_required("-i", "movie (.mrc/.mrcs/.tif/.tiff/.eer), or a text file with one movie per line (batch mode: "
                        "output names hold {movie}, the movie's name without folder and extension, or "
                        "{movie_path}, its path without extension, relative to the working folder (outside it: "
                        "absolute, without the leading /), which keeps movies of different folders apart); with --session also a "
                        "folder or a quoted glob ('Movies/*.tiff')")
      .alias("--i").alias("--input").meta("movie").in_section(kIo);
  p.text_optional("-o", "alignment metadata: .star (frost layout) or .xmd (Xmipp layout); default <root>_align.star "
                        "beside the first output given (--oavg first); a run needs at least one output option")
      .alias("--o").meta("align.star").in_section(kIo);
  p.text_optional("--oavg", "aligned micrograph (dose weighted with --dose-weight)").meta("mic.mrc").in_section(kIo);
  p.text_optional("--oavg-nodw", "aligned micrograph, not dose weighted").alias("--oavg_nodw").meta("mic.mrc").in_section(kIo);
  p.text_optional("--oavgInitial", "unaligned sum of the frames").meta("sum.mrc").in_section(kIo);
  p.text_optional("--oaligned", "aligned frames as an MRC stack").meta("frames.mrcs").in_section(kIo);
  p.text_optional("--ohalves", "sums of even and odd frames: ROOT_EVN.mrc, ROOT_ODD.mrc").meta("root").in_section(kIo);
  p.text_optional("--opsd", "power spectrum of the aligned, unweighted sum").meta("psd.mrc").in_section(kIo);
  p.integer("--psd-size", 512, "PSD tile size (even)").alias("--psd_size").range(16, 8192).in_section(kIo);
  p.text_optional("--othumbnail", "PNG thumbnail of the micrograph (as --oavg: dose weighted with --dose-weight)")
      .meta("mic.png").in_section(kIo);
  p.integer("--thumbnail-size", 512, "longest side of --othumbnail [px] (box-averaged down)").range(16, 8192)
      .in_section(kIo);
  p.text_optional("--opsd-png", "PNG of the power spectrum (as --opsd: log scale, percentile clipped)")
      .meta("psd.png").in_section(kIo);
  p.text_optional("--odrift-plot", "PNG drift plot: global trajectory, and the local model at the patch centres")
      .meta("drift.png").in_section(kIo);
  p.text_optional("--ostar_motion", "RELION per-micrograph motion STAR: global shifts and, with a local model, its "
                                    "third-order polynomial fit (model version 1); with --gain-rot/--gain-flip/"
                                    "--gain-invert it names the gain as applied, written beside it as "
                                    "<gain>_rot<k>_flip<f>[_inverted].mrc (a defect image likewise)")
      .alias("--ostar-motion").meta("motion.star").in_section(kIo);
  p.flag("--float16", "write images as MRC mode 12 (half precision, at most 65504: an image beyond that is an error; "
                      "the --opsd spectrum is written divided by its median, values above 65504 clamped)")
      .in_section(kIo);
  p.flag("--overwrite", "batch mode: align movies whose outputs already exist; --session: accept changed "
                       "parameters and redo every movie with them").in_section(kIo);
  p.real("--gpu-mem-fraction", 0.9, "fraction of the free GPU memory the batches may use (GPU only)")
      .range(0.05, 1.0).in_section("Execution");
  p.text_optional("--storage", "persistent FFT cache (FFTW wisdom; Xmipp --storage), default $FROST_STORAGE: a "
                               "directory, or a file name such as Scipion's <extra>/fftBenchmark.txt, which puts the "
                               "cache in the frost-cache folder beside it")
      .meta("path").in_section("Execution");

  p.real("--sampling", 0.0, "raw pixel size Ts [A/px]; 0 = from the movie header").alias("--angpix")
      .alias("--sampling_rate").at_least(0).in_section(kMovie);
  p.integers("--frameRange", {0, -1}, "first and last frame to align (0-based, inclusive; -1 = last)")
      .alias("--frame-range").in_section(kMovie);
  p.integers("--frameRangeSum", {0, -1}, "first and last frame to sum; inside --frameRange (default: the same)")
      .alias("--frame-range-sum").in_section(kMovie);
  p.real("--bin", 1.0, "Fourier binning factor b >= 1 applied at load").at_least(1.0).in_section(kMovie);
  p.text_optional("--gain", "multiplicative gain reference (no negative value, some positive)").alias("--gainImage")
      .meta("gain.mrc").in_section(kMovie).input_file();
  p.integer("--gain-rot", 0, "rotate the gain by k x 90 degrees (MotionCor2 -RotGain)").alias("--gain_rot").range(0, 3)
      .in_section(kMovie);
  p.integer("--gain-flip", 0, "0 none, 1 upside down, 2 left-right (after the rotation)").alias("--gain_flip")
      .range(0, 2).in_section(kMovie);
  p.flag("--gain-invert", "use 1/gain (0 stays 0)").alias("--gain_invert").in_section(kMovie);
  p.text_optional("--dark", "dark reference, subtracted before the gain").alias("--darkImage").meta("dark.mrc")
      .in_section(kMovie).input_file();
  p.text_optional("--defects", "defects: 'x y w h' text file or image (non-zero = bad)").meta("defects.txt")
      .in_section(kMovie).input_file();
  p.real("--hot-pixel-sigma", 0.0, "replace pixels of the unaligned sum above mean + k sigma (0 = off)")
      .at_least(0).in_section(kMovie);
  p.flag("--low-memory", "keep integer movies as their counts and apply dark/gain when a stage reads a frame "
                         "(CPU; the same results)").alias("--low_memory").in_section(kMovie);
  p.choice("--tiff-flip-y", "yes", {"yes", "no"}, "flip TIFF rows on read (IMOD/SerialEM/RELION); no = Xmipp")
      .in_section(kMovie);
  p.choice("--tiff-4bit", "auto", {"yes", "no", "auto"}, "4-bit packed TIFF pages (auto: by the known camera sizes)")
      .in_section(kMovie);
  p.integer("--eer-upsampling", 1, "EER render grid 4096 u, u in {1, 2, 4}").alias("--eer_upsampling")
      .range(1, 4).in_section(kMovie);
  p.integer("--eer-fractions", 40, "EER: number of fractions").alias("--eer_fractions").at_least(1).in_section(kMovie);
  p.integer("--eer-group", 0, "EER: raw frames per fraction (RELION --eer_grouping); wins over --eer-fractions")
      .alias("--eer_grouping").at_least(0).in_section(kMovie);
  p.real("--eer-dose-per-fraction", 0.0,
         "EER: dose per fraction [e/A^2]; frames per fraction = round(d / dose per raw frame from the file's "
         "metadata); wins over --eer-fractions (0: off)")
      .alias("--eer_dose_per_fraction").at_least(0).in_section(kMovie);
  p.integer("--seed", 0, "random seed of the bad-pixel replacement").at_least(0).in_section(kMovie).advanced();

  p.real("--maxResForCorrelation", 20.0, "resolution at which the alignment low-pass is 0.5 [A]")
      .alias("--max-res-correlation").at_least(1e-3).in_section(kGlobal);
  p.real("--maxShift", 50.0, "search radius of each pairwise correlation [A]").alias("--max-shift").at_least(1e-3)
      .in_section(kGlobal);
  p.choice("--subpixel", "gauss3", {"gauss3", "parabolic", "centroid3"}, "sub-pixel peak refinement").in_section(kGlobal);
  p.choice("--global-mode", "pairs", {"pairs", "sum"}, "all frame pairs (FlexAlign) or frame versus sum of the others")
      .in_section(kGlobal);
  p.real("--sum-tol", 0.1, "sum mode: stop when the rms shift increment is below this [px]").at_least(0)
      .in_section(kGlobal);
  p.integer("--sum-iter", 15, "sum mode: at most this many iterations").at_least(1).in_section(kGlobal);
  p.integer("--group-global", 1, "sum mode: align sums of G consecutive frames, shifts interpolated to the frames "
            "(RELION --group_frames)").alias("--group_frames").at_least(1).in_section(kGlobal);
  p.integer("--max-pair-distance", 0, "only correlate pairs with j - i <= K (0 = all)").at_least(0).in_section(kGlobal);
  p.real("--outlier-sigma", 3.0, "robust least squares: reject residuals above k sigma").at_least(0.1)
      .in_section(kGlobal);
  p.integer("--outlier-rounds", 10, "robust least squares: flagging rounds").at_least(0).in_section(kGlobal);
  p.text("--reference", "minimax", "reference frame: minimax, first, middle, or a frame index (0-based, aligned frames)")
      .in_section(kGlobal);
  p.choice("--fft-sizes", "fast", {"fast", "exact", "advisor"}, "correlation size rule (advisor needs a GPU)")
      .alias("--fft_sizes").in_section(kGlobal);

  p.flag("--skipLocalAlignment", "global alignment only").alias("--skip-local-alignment").in_section(kLocal);
  p.integers("--patches", {0, 0}, "patch grid NX NY (default: from --minLocalRes)").in_section(kLocal);
  p.real("--minLocalRes", 500.0, "requested patch edge [A]").alias("--min-local-res").at_least(1e-3).in_section(kLocal);
  p.integer("--patchesAvg", 3, "frames summed in a sliding window for each patch image").alias("--patches-avg")
      .range(1, 1000).in_section(kLocal);
  cli::Param& cp = p.text("--controlPoints", "6", "B-spline control points LX LY LT (each >= 3, incl. end points) or auto")
                  .alias("--control-points").meta("LX LY LT|auto").in_section(kLocal);
  cp.defaults = {"6", "6", "5"};
  cp.count = -1;
  p.choice("--local-model", "residual", {"residual", "total"},
           "the B-spline fits the local residual (default) or the total shift (Xmipp)").in_section(kLocal);
  p.real("--bspline-lambda", 0.0, "ridge on second differences of the coefficients").at_least(0).in_section(kLocal);
  p.real("--max-local-rmsd", 2.0, "fall back to the global model above this B-spline fit RMSD [raw px]").at_least(0)
      .in_section(kLocal);

  p.choice("--interp", "bspline3", {"bspline3", "bilinear", "fourier"},
           "final interpolation (fourier: global-only models)").in_section(kSum);
  p.flag("--dose-weight", "dose weighting of --oavg").alias("--dose_weighting").in_section(kSum);
  p.real("--dose-per-frame", 1.0, "dose per frame (per EER fraction) [e/A^2]; needed by --dose-weight; when not "
                                  "given, --ostar_motion records RELION's default of 1 (with a warning) and -o none")
      .alias("--dose_per_frame").at_least(0).in_section(kSum);
  p.real("--pre-exposure", 0.0, "dose before the first frame [e/A^2]").alias("--preexposure").at_least(0)
      .in_section(kSum);
  p.real("--voltage", 300.0, "acceleration voltage [kV]: 100, 200 or 300").alias("--kV").in_section(kSum);
  p.choice("--normalize", "sum", {"sum", "mean"}, "write the frame sum (RELION) or the mean (Xmipp --oavg)")
      .in_section(kSum);
  tuning::declare_tuning_options(p); // docs/tune.md#common-options: the GPU kernels' launches
}

namespace {

const char* const kOutputOptions[] = {"-o",          "--oavg",        "--oavg-nodw",   "--oavgInitial",
                                      "--oaligned",  "--ohalves",     "--opsd",        "--ostar_motion",
                                      "--othumbnail", "--opsd-png",   "--odrift-plot"};

} // namespace

void validate_align_options(const cli::Params& p) {
  // Without an output the alignment STAR would land beside the movie, in the raw-data folder. A
  // session has defaults in its folder (docs/session.md#the-session-loop).
  bool any_output = p.given("--session");
  for (const char* o : kOutputOptions) any_output = any_output || p.given(o);
  if (!any_output)
    throw_usage_error("no output: give -o align.star, --oavg mic.mrc or another output option (see the "
                      "Input/output section of --help)");
  const auto range = p.get_ints("--frameRange");
  if (range[0] < -1 || range[1] < -1) throw_usage_error("--frameRange: frames are >= 0 (or -1 for first/last)");
  if (range[1] >= 0 && range[0] > range[1])
    throw_usage_error("--frameRange " + std::to_string(range[0]) + " " + std::to_string(range[1]) + ": first > last");
  if (p.given("--frameRangeSum")) {
    const auto sum = p.get_ints("--frameRangeSum");
    const long long first = range[0] < 0 ? 0 : range[0];
    const bool sum_first_bad = sum[0] >= 0 && sum[0] < first;
    const bool sum_last_bad = sum[1] >= 0 && range[1] >= 0 && sum[1] > range[1];
    const bool sum_order_bad = sum[0] >= 0 && sum[1] >= 0 && sum[0] > sum[1];
    if (sum_first_bad || sum_last_bad || sum_order_bad)
      throw_usage_error("--frameRangeSum " + std::to_string(sum[0]) + " " + std::to_string(sum[1]) +
                        " must lie inside --frameRange " + std::to_string(range[0]) + " " + std::to_string(range[1]));
  }
  const auto cp = p.get_ints("--controlPoints");
  const std::string cp0 = p.get_text("--controlPoints");
  if (cp0 != "auto") {
    if (cp.size() != 3) throw_usage_error("--controlPoints: give LX LY LT or auto");
    for (long long v : cp)
      if (v < 3) throw_usage_error("--controlPoints: each count must be >= 3 (got " + std::to_string(v) + ")");
  } else if (cp.size() != 1) {
    throw_usage_error("--controlPoints: give LX LY LT or auto");
  }
  if (p.given("--patches")) {
    const auto n = p.get_ints("--patches");
    if (n[0] < 1 || n[1] < 1) throw_usage_error("--patches: need NX NY >= 1");
  }
  if (p.get_text("--interp") == "fourier" && !p.flag_value("--skipLocalAlignment"))
    throw_usage_error("--interp fourier applies one shift per frame: use it with --skipLocalAlignment");
  const long long u = p.get_int("--eer-upsampling");
  if (u != 1 && u != 2 && u != 4) throw_usage_error("--eer-upsampling: expected 1, 2 or 4");
  if (p.get_int("--psd-size") % 2 != 0) throw_usage_error("--psd-size must be even");
  for (const char* png : {"--othumbnail", "--opsd-png", "--odrift-plot"})
    if (p.given(png) && !picture::png_supported())
      throw_usage_error(std::string(png) + ": frost was built without PNG support (libpng not found at configure "
                                           "time; install libpng-dev and configure again)");
  if (p.get_int("--group-global") > 1 && p.get_text("--global-mode") != "sum")
    throw_usage_error("--group-global applies to --global-mode sum (frame pairs are not grouped)");
  if (p.get_int("--eer-group") > 0 && p.get_real("--eer-dose-per-fraction") > 0)
    throw_usage_error("--eer-group and --eer-dose-per-fraction both say how raw EER frames are grouped: give one");
  if (p.flag_value("--dose-weight")) {
    // An EER movie (or a list, which may hold some) can give its dose in its metadata: checked per movie.
    const std::string input = p.get_text("-i");
    const bool dose_may_come_from_file = io::file_extension(input) == "eer" || is_movie_list(input);
    if (!p.given("--dose-per-frame") && !dose_may_come_from_file)
      throw_usage_error("--dose-weight needs --dose-per-frame");
    if (!(p.get_real("--dose-per-frame") > 0)) throw_usage_error("--dose-per-frame must be positive");
    const double kv = p.get_real("--voltage");
    if (kv != 100 && kv != 200 && kv != 300) throw_usage_error("--voltage: dose weighting knows 100, 200 and 300 kV");
  }
  motion::parse_fft_size_rule(p.get_text("--fft-sizes")); // advisor: a usage error on the CPU
  motion::GlobalSettings g;
  motion::parse_reference(p.get_text("--reference"), g);
}

AlignOptions align_options(const cli::Params& p) {
  AlignOptions options;
  motion::MovieAlignSettings& o = options.align;
  motion::MovieReadOptions& r = o.read;
  const auto range = p.get_ints("--frameRange");
  r.first_frame = range[0] < 0 ? 0 : range[0];
  r.last_frame = range[1];
  r.bin = p.get_real("--bin");
  if (p.given("--gain")) r.gain = p.get_text("--gain");
  if (p.given("--dark")) r.dark = p.get_text("--dark");
  if (p.given("--defects")) r.defects = p.get_text("--defects");
  r.gain_transform.rotation = static_cast<int>(p.get_int("--gain-rot"));
  r.gain_transform.flip = static_cast<int>(p.get_int("--gain-flip"));
  r.gain_invert = p.flag_value("--gain-invert");
  r.hot_pixel_sigma = p.get_real("--hot-pixel-sigma");
  r.seed = static_cast<std::uint64_t>(p.get_int("--seed"));
  r.tiff_flip_y = yes(p.get_text("--tiff-flip-y"));
  const std::string four_bit = p.get_text("--tiff-4bit");
  r.tiff_4bit = four_bit == "yes" ? io::Switch::Yes : four_bit == "no" ? io::Switch::No : io::Switch::Auto;
  r.eer_upsampling = static_cast<int>(p.get_int("--eer-upsampling"));
  r.eer_fractions = p.get_int("--eer-fractions");
  r.eer_frames_per_fraction = p.get_int("--eer-group");
  r.eer_dose_per_fraction = p.get_real("--eer-dose-per-fraction");
  if (p.get_real("--sampling") > 0) o.pixel_size = p.get_real("--sampling");
  if (p.given("--frameRangeSum")) {
    const auto sum = p.get_ints("--frameRangeSum");
    o.sum_range_given = true;
    o.sum_first = static_cast<int>(sum[0]);
    o.sum_last = static_cast<int>(sum[1]);
  }

  motion::GlobalSettings& g = o.global;
  g.max_resolution = p.get_real("--maxResForCorrelation");
  g.max_resolution_is_default = !p.given("--maxResForCorrelation");
  g.max_shift = p.get_real("--maxShift");
  g.subpixel = motion::parse_subpixel(p.get_text("--subpixel"));
  g.mode = motion::parse_global_mode(p.get_text("--global-mode"));
  g.sum_tolerance = p.get_real("--sum-tol");
  g.sum_iterations = static_cast<int>(p.get_int("--sum-iter"));
  g.sum_group = static_cast<int>(p.get_int("--group-global"));
  g.max_pair_distance = static_cast<int>(p.get_int("--max-pair-distance"));
  g.outlier_sigma = p.get_real("--outlier-sigma");
  g.outlier_rounds = static_cast<int>(p.get_int("--outlier-rounds"));
  g.fft_sizes = motion::parse_fft_size_rule(p.get_text("--fft-sizes"));
  motion::parse_reference(p.get_text("--reference"), g);

  o.local = !p.flag_value("--skipLocalAlignment");
  motion::LocalSettings& l = o.local_settings;
  l.min_local_resolution = p.get_real("--minLocalRes");
  if (p.given("--patches")) {
    const auto n = p.get_ints("--patches");
    l.patches_x = static_cast<int>(n[0]);
    l.patches_y = static_cast<int>(n[1]);
  }
  l.patches_average = static_cast<int>(p.get_int("--patchesAvg"));
  o.control_points_auto = p.get_text("--controlPoints") == "auto";
  if (!o.control_points_auto) {
    const auto cp = p.get_ints("--controlPoints");
    l.control_points = {static_cast<int>(cp[0]), static_cast<int>(cp[1]), static_cast<int>(cp[2])};
  }
  l.model = motion::parse_local_model(p.get_text("--local-model"));
  l.bspline_lambda = p.get_real("--bspline-lambda");
  o.max_local_rmsd_raw = p.get_real("--max-local-rmsd");

  o.interp = motion::parse_interpolation_method(p.get_text("--interp"));
  o.dose_weight = p.flag_value("--dose-weight");
  o.dose_known = p.given("--dose-per-frame");
  o.dose.dose_per_frame = p.get_real("--dose-per-frame");
  o.dose.pre_exposure = p.get_real("--pre-exposure");
  o.dose.voltage_kv = p.get_real("--voltage");
  o.normalization = motion::parse_sum_normalization(p.get_text("--normalize"));
  options.psd_size = static_cast<int>(p.get_int("--psd-size"));
  options.thumbnail_size = static_cast<int>(p.get_int("--thumbnail-size"));
  options.float16 = p.flag_value("--float16");
  options.overwrite = p.flag_value("--overwrite");
  options.backend.gpu_memory_fraction = p.get_real("--gpu-mem-fraction");
  options.backend.low_memory = p.flag_value("--low-memory");
  options.backend.tuning = tuning::tuning_options_from(p);
  const char* storage_env = std::getenv("FROST_STORAGE");
  options.storage = storage_directory(p.given("--storage") ? p.get_text("--storage") : storage_env ? storage_env : "");
  return options;
}

OutputPaths output_paths(const cli::Params& p) {
  auto text = [&](const char* name) { return p.given(name) ? p.get_text(name) : std::string(); };
  OutputPaths o;
  o.alignment = text("-o");
  o.micrograph = text("--oavg");
  o.micrograph_nodw = text("--oavg-nodw");
  o.initial = text("--oavgInitial");
  o.aligned_stack = text("--oaligned");
  o.halves_root = text("--ohalves");
  o.psd = text("--opsd");
  o.relion_motion = text("--ostar_motion");
  o.thumbnail = text("--othumbnail");
  o.psd_picture = text("--opsd-png");
  o.drift_plot = text("--odrift-plot");
  reference_copies(p, o);
  return o;
}

std::vector<NamedPath> output_files(const OutputPaths& o, bool shared) {
  std::vector<NamedPath> files;
  const std::pair<const char*, const std::string*> named[] = {
      {"-o", &o.alignment},          {"--oavg", &o.micrograph},           {"--oavg-nodw", &o.micrograph_nodw},
      {"--oavgInitial", &o.initial}, {"--oaligned", &o.aligned_stack},     {"--opsd", &o.psd},
      {"--ostar_motion", &o.relion_motion}, {"--othumbnail", &o.thumbnail}, {"--opsd-png", &o.psd_picture},
      {"--odrift-plot", &o.drift_plot}};
  for (const auto& [option, path] : named)
    if (!path->empty()) files.push_back({option, *path});
  if (!o.halves_root.empty()) {
    files.push_back({"--ohalves (even frames)", o.halves_root + "_EVN.mrc"});
    files.push_back({"--ohalves (odd frames)", o.halves_root + "_ODD.mrc"});
  }
  if (shared && !o.gain_copy.empty()) files.push_back({"the gain as applied (for --ostar_motion)", o.gain_copy});
  if (shared && !o.defects_copy.empty())
    files.push_back({"the defect image as applied (for --ostar_motion)", o.defects_copy});
  return files;
}

namespace {

/// The folder of `pattern` before its first `{` key ("" for the working folder), with a slash.
std::string folder_before_keys(const std::string& pattern) {
  const std::string fixed = pattern.substr(0, pattern.find('{'));
  const std::size_t slash = fixed.find_last_of('/');
  return slash == std::string::npos ? std::string() : fixed.substr(0, slash + 1);
}

} // namespace

void reference_copies(const cli::Params& p, OutputPaths& o) {
  if (o.relion_motion.empty()) return;
  const long long rot = p.get_int("--gain-rot"), flip = p.get_int("--gain-flip");
  const bool invert = p.flag_value("--gain-invert");
  const std::string folder = folder_before_keys(o.relion_motion);
  const std::string how = "_rot" + std::to_string(rot) + "_flip" + std::to_string(flip);
  if (p.given("--gain") && (rot != 0 || flip != 0 || invert))
    o.gain_copy = folder + io::file_stem(p.get_text("--gain")) + how + (invert ? "_inverted" : "") + ".mrc";
  // A text defect file lists frame coordinates, which no transform changes (docs/movie_align.md).
  if (p.given("--defects") && (rot != 0 || flip != 0) && motion::is_defect_image(p.get_text("--defects")))
    o.defects_copy = folder + io::file_stem(p.get_text("--defects")) + how + ".mrc";
}

} // namespace frost::movie_align
