// frost_align_significant: pose estimation of particle images against reference projections
// (docs/align_significant.md): every image is aligned to every reference by the iterative
// shift/rotation estimator, pairs are scored by Pearson CC, weighted by significance within
// angular neighbourhoods and the best N references per image are written. The pipeline is
// align::align_significant (libs/alignment) on the backend `--device` picks
// (align::make_alignment_backend: the CPU, or CUDA); MPI splits the images over ranks and the
// results are merged in input order on rank 0.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "frost/alignment/backend.hpp"
#include "frost/alignment/significant_pipeline.hpp"
#include "frost/cli/program.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/core/read_ahead.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/core/threads.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/metadata/image_location.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/value_text.hpp"
#include "frost/mpi/run_ranks.hpp"
#include "frost/mpi/split.hpp"
#include "frost/tuning/options.hpp"
#include "gallery.hpp"
#include "image_set.hpp"
#include "outputs.hpp"

#if FROST_HAVE_MPI
#include "frost/mpi/collectives.hpp" // gather_columns
#endif

namespace frost {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// "<odir>/<o>" unless -o is absolute (docs/align_significant.md#xmipp-compatible-options).
std::string join_output(const std::string& odir, const std::string& o) {
  if (o.empty() || o.front() == '/' || odir.empty() || odir == ".") return o;
  return odir + "/" + o;
}

/// The STAR path beside the .xmd (same root), or the .xmd path beside a .star -o.
std::string sibling(const std::string& path, const std::string& ext) {
  const std::size_t dot = path.find_last_of('.'), slash = path.find_last_of('/');
  const std::string root = (dot != std::string::npos && (slash == std::string::npos || dot > slash)) ? path.substr(0, dot) : path;
  return root + ext;
}

class AlignSignificant : public cli::Program {
public:
  AlignSignificant()
      : Program("frost_align_significant",
                "Pose estimation against reference projections (Xmipp's cuda_align_significant): every image is\n"
                "aligned to every reference (3 x shift then rotation, and 3 x rotation then shift; the pose with the\n"
                "higher Pearson CC is kept), significance weights are computed within angular neighbourhoods of\n"
                "the references and the best --keepBestN references per image are written as Xmipp metadata (-o)\n"
                "and as a RELION STAR with the same poses (same root, .star). References come from -r (stack +\n"
                "angles) or are projected from --volume. CPU (FFTW, threads) and MPI (images split over ranks).") {}

protected:
  void define(cli::Params& p) override {
    p.text_required("-i", "metadata of the experimental images (Xmipp .xmd or RELION STAR)").meta("images.xmd")
        .in_section("Input/output");
    p.text_optional("-r", "metadata of the references (image, ref, angleRot, angleTilt)").meta("gallery.xmd")
        .in_section("Input/output");
    p.text_required("-o", "output metadata (.xmd); a RELION STAR with the same root is written too")
        .meta("angles.xmd").in_section("Input/output");
    p.text("--odir", ".", "output directory (created); ignored for an absolute -o").in_section("Input/output");
    p.text("--keepBestN", "1", "references kept per image (an integer; \"8.000000\" is accepted)")
        .in_section("Input/output");
    p.real("--angDistance", 10, "neighbourhood radius of the weights [deg]").at_least(0).in_section("Input/output");
    p.flag("--useWeightInsteadOfCC", "rank references by weight instead of CC").in_section("Input/output");
    p.flag("--allowInputSwap", "when there are more references than images, align the references to the images "
                               "(fewer precomputations; worse when the images are not centred)").in_section("Input/output");
    p.text_optional("--write-cc-matrix", "write the N_ref x N_img CC matrix (float32, row = reference)")
        .meta("cc.bin").in_section("Input/output").output_file();
    p.real("--pixel-size", 0, "pixel size [A] of the images; 0 = from -i (RELION data_optics rlnImagePixelSize, "
                              "Xmipp samplingRate)").at_least(0).in_section("Input/output");
    p.text_optional("--oUpdatedRefs", "also write the per-reference weighted averages of the aligned images as "
                                      "<odir>/<base>.stk (SPIDER) and <odir>/<base>.xmd (blocks classes, "
                                      "class%06d_images)").meta("base").in_section("Input/output");

    p.integer("--iters", 3, "iterations of each order").range(1, 100).in_section("Alignment");
    p.choice("--subpixel", "parabolic", {"none", "parabolic", "centroid3"},
             "peak refinement of shift and rotation; none reproduces Xmipp's output").in_section("Alignment");
    p.integer("--shift-search", -1, "radius of the per-step shift search [px]; -1 = X/4").at_least(-1)
        .in_section("Alignment");
    p.real("--max-shift", -1, "reject pairs whose final shift exceeds this [px], > 0; -1 = off").at_least(-1)
        .in_section("Alignment");
    p.flag("--check-mirrors", "also align the X-mirrored image (rows get flip = 1 when it wins)").in_section("Alignment");
    p.choice("--fft-planning", "estimate", {"estimate", "measure"}, "FFTW planner rigor (estimate is reproducible)")
        .in_section("Alignment");

    p.text_optional("--volume", "project the references from this map instead of -r").meta("map.mrc")
        .in_section("Volume mode").input_file();
    p.real("--sampling", 5, "angular step of the gallery [deg]").range(0.1, 90).in_section("Volume mode");
    p.text("--sym", "c1", "point-group symmetry of the map (gallery in one asymmetric unit)").in_section("Volume mode");
    p.real("--min-tilt", 0, "smallest tilt of the gallery [deg]").range(0, 180).in_section("Volume mode");
    p.real("--max-tilt", 180, "largest tilt of the gallery [deg]").range(0, 180).in_section("Volume mode");
    p.text_optional("--save-gallery", "write the projected gallery as <base>.mrcs + <base>.xmd").meta("base")
        .in_section("Volume mode");

    add_device_option(p, "cpu");
    tuning::declare_tuning_options(p);
    p.integer("--batch", 0, "images per batch (GPU; accepted and ignored on the CPU)").at_least(0).in_section("Execution");
    p.real("--gpu-mem-fraction", 0.8, "fraction of free device memory (GPU)").range(0.05, 1).in_section("Execution");
    p.integer("--stream-batch", 0, "images read from disk per batch, the next read while one is aligned; "
                                   "0 = about 256 MiB of images").at_least(0).in_section("Execution");
  }

  void validate() override {
    keep_best_ = parse_keep_best(params().get_text("--keepBestN"));
    if (params().given("-r") == params().given("--volume"))
      throw_usage_error("give the references either with -r or with --volume");
    if (params().flag_value("--allowInputSwap") && params().flag_value("--check-mirrors"))
      throw_usage_error("--allowInputSwap and --check-mirrors exclude each other");
    if (params().get_real("--min-tilt") > params().get_real("--max-tilt"))
      throw_usage_error("--min-tilt must not exceed --max-tilt");
    geom::parse_symmetry(params().get_text("--sym"));
    // A limit of 0 rejects every pose that moves the image at all (a sub-pixel shift is never
    // exactly 0): the run would write nothing.
    const double max_shift = params().get_real("--max-shift");
    if (max_shift != -1 && !(max_shift > 0))
      throw_usage_error("--max-shift " + meta::format_shortest(max_shift) +
                        " rejects every pose that shifts the image; give a positive radius in px, or -1 for no limit");
  }

  /// Every file the run writes, the metadata -i and -r, and the image stacks they name: checked
  /// before any work, --validate included (docs/conventions.md#checks-before-the-run).
  void add_run_files(RunFiles& files) const override {
    const std::string in = meta::split_block_spec(params().get_text("-i")).file;
    files.input("-i", in);
    const double pixel = pixel_option();
    if (is_file(in)) {
      images_ = app::read_image_table(params().get_text("-i"), pixel);
      for (const std::string& f : meta::data_files(images_->images)) files.input("an image stack of -i " + in, f);
    }
    if (params().given("-r")) {
      const std::string refs = meta::split_block_spec(params().get_text("-r")).file;
      files.input("-r", refs);
      if (is_file(refs)) {
        refs_ = app::read_image_table(params().get_text("-r"), pixel);
        for (const std::string& f : meta::data_files(refs_->images)) files.input("an image stack of -r " + refs, f);
      }
    }
    const Outputs o = outputs();
    files.output("-o", o.xmd_first ? o.xmd : o.star);
    files.output(o.xmd_first ? "the STAR beside -o" : "the XMD beside -o", o.xmd_first ? o.star : o.xmd);
    if (!o.updated_refs.empty()) {
      files.output("--oUpdatedRefs (stack)", o.updated_refs + ".stk");
      files.output("--oUpdatedRefs (metadata)", o.updated_refs + ".xmd");
    }
    if (params().given("--save-gallery")) {
      const std::string base = params().get_text("--save-gallery");
      files.output("--save-gallery (stack)", base + ".mrcs");
      files.output("--save-gallery (metadata)", base + ".xmd");
    }
  }

  int run() override {
    return mpi::run_ranks(launcher_size(), [this](int rank, int size) { return run_rank(rank, size); });
  }

private:
  static bool is_file(const std::string& path) {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
  }

  /// --pixel-size, or 0 when the images' metadata is to give it.
  double pixel_option() const { return params().get_real("--pixel-size"); }

  /// The files -o, --odir and --oUpdatedRefs name.
  struct Outputs {
    std::string xmd, star, updated_refs; ///< updated_refs: the base, empty without the option
    bool xmd_first = true;               ///< -o names the .xmd (else the .star)
  };
  Outputs outputs() const {
    Outputs o;
    const std::string odir = params().get_text("--odir");
    const std::string out = join_output(odir, params().get_text("-o"));
    o.xmd_first = !(out.size() > 5 && out.compare(out.size() - 5, 5, ".star") == 0);
    o.xmd = o.xmd_first ? out : sibling(out, ".xmd");
    o.star = o.xmd_first ? sibling(out, ".star") : out;
    if (params().given("--oUpdatedRefs")) o.updated_refs = join_output(odir, params().get_text("--oUpdatedRefs"));
    return o;
  }

  /// Callers format the count with %f ("8.000000"); non-integral values and N < 1 are usage errors.
  static std::size_t parse_keep_best(const std::string& text) {
    double v = 0;
    if (!meta::parse_double(text, v) || !(v >= 1) || v != std::floor(v) || v > 1e9)
      throw_usage_error("--keepBestN: need an integer >= 1, got '" + text + "'");
    return static_cast<std::size_t>(v);
  }

  align::AlignSettings settings() const {
    align::AlignSettings s;
    s.iters = static_cast<int>(params().get_int("--iters"));
    s.subpixel = align::parse_subpixel(params().get_text("--subpixel"));
    s.shift_search = static_cast<int>(params().get_int("--shift-search"));
    s.max_shift = params().get_real("--max-shift");
    s.check_mirrors = params().flag_value("--check-mirrors");
    return s;
  }

  /// The CPU backend for `--device cpu`, else the CUDA one: a single process uses every listed
  /// GPU (references split over them); MPI ranks take the ids in turn (rank k: id k mod n).
  std::unique_ptr<align::AlignmentBackend> make_backend(int rank, int size) const {
    const tuning::TuningOptions tune = tuning::tuning_options_from(params());
    if (device().cpu) tuning::note_tuning_ignored_on_cpu(tune);
    else tuning::note_no_tunable_kernels("frost_align_significant", tune);
    DeviceSelection devices = device();
    if (!devices.cpu && size > 1) devices.gpus = {devices.gpus[static_cast<std::size_t>(rank) % devices.gpus.size()]};
    align::AlignmentBackendOptions o;
    o.memory_fraction = params().get_real("--gpu-mem-fraction");
    const long long batch = params().get_int("--batch");
    if (batch > 0) o.max_batch = static_cast<int>(std::min<long long>(batch, 1 << 20));
    return align::make_alignment_backend(devices, o);
  }

  int run_rank(int rank, int size) {
    const auto t_start = Clock::now();
    const std::string input = params().get_text("-i");

    // Inputs and checks, in the order of docs/align_significant.md#checks-and-normalisation.
    // The tables were read while the run files were collected (add_run_files).
    app::ImageTable images = images_ ? std::move(*images_) : app::read_image_table(input, pixel_option());
    if (images.rows.rows() == 0) throw_input_error(input, "no enabled images");
    const Shape is = app::first_image_shape(images);
    if (is.x != is.y) throw_input_error(input, "images must be square (got " + to_string(is) + ")");
    app::ImageTable ref_table;
    app::ReferenceInfo ref_info;
    const bool volume_mode = params().given("--volume");
    std::string ref_name;
    if (volume_mode) {
      ref_name = params().get_text("--volume");
      ref_info.angles = app::gallery_directions(params().get_real("--sampling"), params().get_text("--sym"),
                                                params().get_real("--min-tilt"), params().get_real("--max-tilt"));
    } else {
      ref_name = params().get_text("-r");
      ref_table = refs_ ? std::move(*refs_) : app::read_image_table(ref_name, pixel_option());
      if (ref_table.rows.rows() < 2)
        throw_input_error(ref_name, "needs at least 2 enabled references (has " + std::to_string(ref_table.rows.rows()) + ")");
      ref_info = app::read_reference_info(ref_table);
      const Shape rs = app::first_image_shape(ref_table);
      if (rs.x != is.x || rs.y != is.y)
        throw_input_error(input, "images are " + std::to_string(is.x) + "x" + std::to_string(is.y) + " px but the references (" +
                                     ref_name + ") are " + std::to_string(rs.x) + "x" + std::to_string(rs.y) + " px");
    }
    const std::size_t n_ref = ref_info.angles.size(), n_img = images.rows.rows();
    if (keep_best_ > n_ref)
      throw_input_error(ref_name, "--keepBestN " + std::to_string(keep_best_) + " is larger than the number of references (" +
                                      std::to_string(n_ref) + ")");
    const int box = static_cast<int>(is.x);
    if (box < 6) throw_input_error(input, "images of " + std::to_string(box) + " px are too small (at least 6, better 16)");
    if (box % 2 != 0 && rank == 0)
      log_warning("odd image size " + std::to_string(box) + ": the last column and row are dropped (as Xmipp does); the "
                  "particle centre moves by half a pixel");
    const int even = box - box % 2;
    const double pixel = resolve_pixel_size(images, volume_mode ? nullptr : &ref_table, rank);
    const mpi::Range mine = mpi::split_range(n_img, rank, size);
    // The images stream from disk in batches (docs/align_significant.md#streaming-the-images): at
    // most two batches of them are in memory.
    const long long batch_option = params().get_int("--stream-batch");
    const std::size_t batch = batch_option > 0 ? static_cast<std::size_t>(batch_option) : align::stream_batch_images(even);
    // Under MPI a rank other than 0 holds the results of its own images only.
    check_sizes(even, n_ref, rank == 0 ? n_img : mine.size(), std::min(mine.size(), 2 * batch), volume_mode);

    // Every output of the run appears together at the end, or none does (docs/conventions.md#atomic-writes).
    std::optional<OutputSet> output_set;
    if (rank == 0) output_set.emplace();

    // Data: all references, this rank's contiguous share of the images.
    const auto t_load = Clock::now();
    Image<float> refs;
    if (volume_mode) {
      app::Gallery gallery = app::make_gallery(ref_name, std::move(ref_info.angles), box);
      if (rank == 0 && params().given("--save-gallery"))
        app::save_gallery(gallery, params().get_text("--save-gallery"), pixel);
      refs = box % 2 != 0 ? crop_even(gallery.images) : std::move(gallery.images);
      ref_info = std::move(gallery.info);
    } else {
      refs = app::load_images(ref_table, 0, n_ref, box);
    }
    // The first batch is read now, before any alignment, so that a bad image there (the whole input
    // when it fits in one batch) is an input error before the work starts; later batches are
    // checked as they are read, and an error there ends the run with nothing written.
    std::optional<Image<float>> first_batch;
    if (mine.size() > 0) first_batch = app::load_images(images, mine.begin, std::min(batch, mine.size()), box);
    // One process whose images fit in one batch keeps that batch for the averages of
    // --oUpdatedRefs instead of reading the images a second time: still at most two batches.
    const bool keep_for_averages = size == 1 && params().given("--oUpdatedRefs") && n_img <= batch;
    const align::ImageLoader load = [&images, &first_batch, &mine, box, keep_for_averages](std::size_t first,
                                                                                          std::size_t count) {
      if (first_batch && first == mine.begin && static_cast<std::size_t>(first_batch->shape().n) == count) {
        if (keep_for_averages) { // a copy for the alignment; the batch stays for the averages
          Image<float> copy(first_batch->shape());
          std::copy(first_batch->data(), first_batch->data() + first_batch->size(), copy.data());
          return copy;
        }
        Image<float> ready = std::move(*first_batch);
        first_batch.reset();
        return ready;
      }
      return app::load_images(images, first, count, box);
    };
    const double load_s = since(t_load); // the references and the first batch of images

    // All pairs of this rank.
    const align::AlignSettings s = settings();
    const bool swap = params().flag_value("--allowInputSwap") && n_ref > n_img;
    if (swap && rank == 0)
      log_warning("--allowInputSwap: aligning the references to the images; worse when the images are not centred");
    auto backend = make_backend(rank, size);
    if (rank == 0)
      log_info("aligning " + std::to_string(n_img) + " images x " + std::to_string(n_ref) + " references of " +
               std::to_string(even) + " px on " + backend->describe() + ", " + std::to_string(size) + " rank(s); " +
               align::to_string(s));
    align::SignificantInput in;
    in.references = refs.cview();
    in.load = load;
    in.local_images = mine.size();
    in.batch = batch;
    in.n_images = n_img;
    in.first_image = mine.begin;
    in.directions = ref_info.angles;
    align::SignificantOptions opt;
    opt.settings = s;
    opt.swap = swap;
    opt.neighbourhood_deg = params().get_real("--angDistance");
    opt.keep_best = keep_best_;
    opt.rank_by_weight = params().flag_value("--useWeightInsteadOfCC");
    opt.root = rank == 0;
    const std::size_t total = n_ref * mine.size();
    std::size_t next_report = total / 10;
    opt.progress = [&](std::size_t done) {
      if (rank != 0 || done < next_report || total == 0) return;
      log_info("aligned " + std::to_string(100 * done / total) + " % of this rank's pairs");
      next_report = done + total / 10;
    };
#if FROST_HAVE_MPI
    if (size > 1)
      opt.gather_to_root = [](const float* local, std::size_t rows, std::size_t first, std::size_t count, float* full,
                              std::size_t row_length) { mpi::gather_columns(local, rows, first, count, full, row_length, 0); };
#endif
    opt.describe_pair = [&](std::size_t r, std::size_t i) {
      return "image " + images.images[i] + " (row " + std::to_string(i + 1) + " of " + images.path + ") with reference " +
             std::to_string(ref_info.ids[r]);
    };
    const align::SignificantResult result = align::align_significant(*backend, in, opt);
    // With --oUpdatedRefs every rank adds its own images to the averages after the root's weights.
    const auto averages = [&](const std::vector<align::Assignment>& kept, const std::vector<align::PairResult>& all) {
      const std::vector<align::PairResult> of_rows = rank == 0 ? align::row_results(kept, all, n_img) : std::vector<align::PairResult>{};
      return updated_references(kept, of_rows, even, n_ref, n_img, mine, batch, box, rank, size, images,
                                keep_for_averages ? &first_batch : nullptr);
    };
    if (rank != 0) {
      if (params().given("--oUpdatedRefs")) averages({}, {});
      return 0;
    }
    const std::vector<align::PairResult>& results = result.pairs;
    const std::vector<float>& cc = result.cc;
    const std::vector<align::Assignment>& rows = result.rows;
    check_assigned(rows, cc, n_ref, n_img, images);

    const auto t_write = Clock::now();
    const Outputs o = outputs();
    const meta::Block block = app::result_block(images, ref_info, rows, results, o.xmd);
    app::write_results(block, o.xmd, o.star, images, pixel, even);
    if (params().given("--write-cc-matrix")) app::write_cc_matrix(params().get_text("--write-cc-matrix"), cc);
    if (!o.updated_refs.empty()) {
      if (keep_best_ > 1)
        log_info("--oUpdatedRefs with --keepBestN " + std::to_string(keep_best_) +
                 ": an image contributes to the average of every reference it is kept for");
      const std::optional<align::ClassAverages> made = averages(rows, results);
      const align::ClassAverages& classes = *made;
      app::write_updated_references(o.updated_refs, classes, ref_info, block, o.xmd, rows);
    }
    output_set->commit();
    const double write_s = since(t_write);

    char line[400];
    std::snprintf(line, sizeof line,
                  "%zu rows for %zu images -> %s, %s; %.0f pairs/s; time [s]: load %.2f, align %.2f (of which "
                  "waiting for images %.2f, %zu batches), weights %.2f, write %.2f, wall %.2f; peak resident %zu MiB",
                  rows.size(), n_img, o.xmd.c_str(), o.star.c_str(), double(n_ref * n_img) / std::max(1e-9, result.align_s),
                  load_s, result.align_s, result.load_wait_s, result.batches, result.weights_s, write_s, since(t_start),
                  peak_resident_memory_bytes() >> 20);
    log_info(line);
    return 0;
  }

  /// The averages of --oUpdatedRefs (docs/align_significant.md#updated-references). Under MPI
  /// the root sends every rank the kept rows and their poses, each rank reads only its own images
  /// (the next batch while one is added) and the ranks' sums are added on the root, which alone
  /// gets the averages (docs/align_significant.md#mpi). A single process whose images fit in one
  /// batch adds the batch it kept (`kept_batch`) instead of reading the images again.
  static std::optional<align::ClassAverages> updated_references(
      std::vector<align::Assignment> rows, std::vector<align::PairResult> of_rows, int even, std::size_t n_ref,
      std::size_t n_img, const mpi::Range& mine, std::size_t batch, int box, int rank, int size,
      const app::ImageTable& images, std::optional<Image<float>>* kept_batch) {
#if FROST_HAVE_MPI
    if (size > 1) {
      mpi::broadcast(rows, 0);
      mpi::broadcast(of_rows, 0);
    }
#endif
    align::ClassAverager averager(even, rows, of_rows, n_ref, n_img);
    if (kept_batch && *kept_batch) {
      averager.add((*kept_batch)->cview(), mine.begin);
      kept_batch->reset();
    } else if (mine.size() > 0) {
      for_each_read_ahead(
          mine.size(), batch,
          [&](std::size_t first, std::size_t count) { return app::load_images(images, mine.begin + first, count, box); },
          [&](const Image<float>& part, std::size_t first) { averager.add(part.cview(), mine.begin + first); });
    }
#if FROST_HAVE_MPI
    if (size > 1) mpi::reduce_sum_in_place(averager.sums().data(), averager.sums().size(), 0);
#else
    (void)size;
#endif
    if (rank != 0) return std::nullopt;
    return averager.finish();
  }

  /// The pixel size written to the outputs: --pixel-size, else the images' metadata, else the
  /// references' (1 Å/px with a warning when none states one). References whose metadata states
  /// another pixel size than the images' are an input error.
  double resolve_pixel_size(app::ImageTable& images, const app::ImageTable* refs, int rank) const {
    const bool both = refs && images.pixel_source == app::PixelSource::File && refs->pixel_source == app::PixelSource::File;
    if (both && std::abs(images.pixel_size - refs->pixel_size) > 1e-3 * images.pixel_size)
      throw_input_error(refs->file, "the references are at " + meta::format_shortest(refs->pixel_size) +
                                        " A/px but the images (" + images.file + ") at " +
                                        meta::format_shortest(images.pixel_size) + " A/px");
    if (images.pixel_size <= 0 && refs && refs->pixel_size > 0) {
      images.pixel_size = refs->pixel_size;
      images.pixel_source = refs->pixel_source;
    }
    if (images.pixel_size > 0) return images.pixel_size;
    if (rank == 0)
      log_warning(images.file + " gives no pixel size and --pixel-size was not given: the STAR output says 1 A/px");
    return 1.0;
  }

  /// Size-like options against the input, before anything large is allocated.
  /// `n_results`: the images whose results this process holds (all on rank 0, its own on the
  /// other ranks); `n_resident`: the images in memory at once (two batches at most).
  void check_sizes(int even, std::size_t n_ref, std::size_t n_results, std::size_t n_resident, bool volume_mode) const {
    const long long search = params().get_int("--shift-search");
    if (search > even / 2)
      throw_usage_error("--shift-search " + std::to_string(search) + " px is more than half the image size (" +
                        std::to_string(even / 2) + " px for " + std::to_string(even) + " px images)");
    // The references, the images in memory, the N_ref x N_img results (and their copy for a
    // batch), CCs and weights must fit in this machine's memory; otherwise the run would end in
    // an out-of-memory error or swap for hours.
    const double pixels = double(even) * even;
    const double pairs = double(n_ref) * double(n_results);
    const double need = 4 * pixels * double(n_ref + n_resident) + pairs * (2 * sizeof(align::PairResult) + 2 * sizeof(float));
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    const double have = pages > 0 && page > 0 ? double(pages) * double(page) : 0;
    if (have > 0 && need > have) {
      const auto gib = [](double bytes) { return meta::format_shortest(std::round(bytes / (1 << 30) * 10) / 10); };
      throw Error(ExitCode::Runtime,
                  std::to_string(n_ref) + " references" +
                      (volume_mode ? " (--sampling " + meta::format_shortest(params().get_real("--sampling")) + ")" : "") +
                      " x " + std::to_string(n_results) + " images of " + std::to_string(even) + " px need about " + gib(need) +
                      " GiB of host memory, more than this machine has (" + gib(have) + " GiB)" +
                      (volume_mode ? "; use a coarser --sampling" : "; split the images over MPI ranks or runs"));
    }
  }

  /// A run that would write no row is an error naming its cause; images left without a row are
  /// counted in a warning.
  void check_assigned(const std::vector<align::Assignment>& rows, const std::vector<float>& cc, std::size_t n_ref,
                      std::size_t n_img, const app::ImageTable& images) const {
    std::vector<char> has_row(n_img, 0);
    for (const align::Assignment& a : rows) has_row[a.image] = 1;
    std::size_t without = 0, all_rejected = 0;
    for (std::size_t i = 0; i < n_img; ++i) {
      if (has_row[i]) continue;
      ++without;
      bool rejected = true;
      for (std::size_t r = 0; r < n_ref && rejected; ++r) rejected = cc[r * n_img + i] == -std::numeric_limits<float>::infinity();
      all_rejected += rejected;
    }
    if (without == 0) return;
    const double max_shift = params().get_real("--max-shift");
    const std::string by_shift = all_rejected > 0 ? std::to_string(all_rejected) + " of them because --max-shift " +
                                                        meta::format_shortest(max_shift) + " px rejected every pose"
                                                  : std::string();
    if (rows.empty())
      throw Error(ExitCode::Runtime,
                  "no image of " + images.path + " was assigned a reference" +
                      (all_rejected == n_img ? ": --max-shift " + meta::format_shortest(max_shift) +
                                                   " px rejected every pose; raise it, or -1 for no limit"
                                             : ": no pose has a positive correlation" +
                                                   (all_rejected > 0 ? " (" + by_shift + ")" : std::string())) +
                      "; nothing was written");
    log_warning(std::to_string(without) + " of " + std::to_string(n_img) + " images have no row (no pose with a positive "
                "correlation" + (all_rejected > 0 ? "; " + by_shift : std::string()) + ")");
  }

  /// Drops the last column and row of every item (odd gallery sizes, as for the images).
  static Image<float> crop_even(const Image<float>& in) {
    const index_t x = in.shape().x - 1, n = in.shape().n;
    Image<float> out(Shape::image(x, x, n));
    for (index_t k = 0; k < n; ++k)
      for (index_t j = 0; j < x; ++j)
        for (index_t i = 0; i < x; ++i) out(i, j, 0, k) = in(i, j, 0, k);
    return out;
  }

  std::size_t keep_best_ = 1;
  // Read while the run files are collected (the image stacks they name are inputs), used by the run.
  mutable std::optional<app::ImageTable> images_, refs_;
};

} // namespace
} // namespace frost

int main(int argc, char** argv) { return frost::AlignSignificant().main(argc, argv); }
