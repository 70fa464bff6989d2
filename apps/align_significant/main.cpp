// frost_align_significant: pose estimation of particle images against reference projections
// (docs/align_significant.md): every image is aligned to every reference by the iterative
// shift/rotation estimator, pairs are scored by Pearson CC, weighted by significance within
// angular neighbourhoods and the best N references per image are written. CPU backend
// (FFTW + threads), CUDA (`--device <ids>`, cuda/alignment) and MPI (images split over ranks,
// results merged in input order on rank 0).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include "frost/alignment/backend.hpp"
#include "frost/alignment/significance.hpp"
#if FROST_HAVE_CUDA_ALIGNMENT
#include "frost/cuda/alignment.hpp"
#endif
#include "frost/cli/program.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/core/threads.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/metadata/value_text.hpp"
#include "frost/mpi/run_ranks.hpp"
#include "frost/mpi/split.hpp"
#include "frost/tuning/options.hpp"
#include "gallery.hpp"
#include "image_set.hpp"
#include "outputs.hpp"

#if FROST_HAVE_MPI
#include "frost/mpi/collectives.hpp" // reduce_sum_in_place
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
        .meta("cc.bin").in_section("Input/output");
    p.real("--pixel-size", 1.0, "pixel size [A] for the RELION STAR (shifts in A) and STAR inputs").at_least(1e-6)
        .in_section("Input/output");
    p.text_optional("--oUpdatedRefs", "also write the per-reference weighted averages of the aligned images as "
                                      "<odir>/<base>.stk (SPIDER) and <odir>/<base>.xmd (blocks classes, "
                                      "class%06d_images)").meta("base").in_section("Input/output");

    p.integer("--iters", 3, "iterations of each order").range(1, 100).in_section("Alignment");
    p.choice("--subpixel", "parabolic", {"none", "parabolic", "centroid3"},
             "peak refinement of shift and rotation; none reproduces Xmipp's output").in_section("Alignment");
    p.integer("--shift-search", -1, "radius of the per-step shift search [px]; -1 = X/4").at_least(-1)
        .in_section("Alignment");
    p.real("--max-shift", -1, "reject pairs whose final shift exceeds this [px]; -1 = off").at_least(-1)
        .in_section("Alignment");
    p.flag("--check-mirrors", "also align the X-mirrored image (rows get flip = 1 when it wins)").in_section("Alignment");
    p.choice("--fft-planning", "estimate", {"estimate", "measure"}, "FFTW planner rigor (estimate is reproducible)")
        .in_section("Alignment");

    p.text_optional("--volume", "project the references from this map instead of -r").meta("map.mrc")
        .in_section("Volume mode");
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
  }

  int run() override {
    return mpi::run_ranks(launcher_size(), [this](int rank, int size) { return run_rank(rank, size); });
  }

private:
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
#if FROST_HAVE_CUDA_ALIGNMENT
    if (!device().cpu) {
      std::vector<int> gpus = device().gpus;
      if (size > 1) gpus = {gpus[static_cast<std::size_t>(rank) % gpus.size()]};
      cuda::CudaAlignOptions o;
      o.memory_fraction = params().get_real("--gpu-mem-fraction");
      const long long batch = params().get_int("--batch");
      if (batch > 0) o.max_batch = static_cast<int>(std::min<long long>(batch, 1 << 20));
      return cuda::make_cuda_align_backend(o, gpus);
    }
#else
    (void)rank;
    (void)size;
#endif
    return align::make_cpu_backend();
  }

  int run_rank(int rank, int size) {
    const auto t_start = Clock::now();
#if !FROST_HAVE_CUDA_ALIGNMENT
    if (!device().cpu)
      throw Error(ExitCode::Device, "frost_align_significant: GPU alignment requested but frost was built without CUDA; "
                                    "use --device cpu");
#endif
    const double pixel = params().get_real("--pixel-size");
    const std::string input = params().get_text("-i");

    // Inputs and checks, in the order of docs/align_significant.md#checks-and-normalisation.
    app::ImageTable images = app::read_image_table(input, pixel);
    if (images.rows.rows() == 0) throw_input_error(input, "no enabled images");
    app::ImageTable ref_table;
    app::Gallery gallery;
    const bool volume_mode = params().given("--volume");
    std::string ref_name;
    if (volume_mode) {
      ref_name = params().get_text("--volume");
      gallery = app::make_gallery(ref_name, params().get_real("--sampling"), params().get_text("--sym"),
                                  params().get_real("--min-tilt"), params().get_real("--max-tilt"));
      if (rank == 0 && params().given("--save-gallery")) app::save_gallery(gallery, params().get_text("--save-gallery"));
    } else {
      ref_name = params().get_text("-r");
      ref_table = app::read_image_table(ref_name, pixel);
      if (ref_table.rows.rows() < 2)
        throw_input_error(ref_name, "needs at least 2 enabled references (has " + std::to_string(ref_table.rows.rows()) + ")");
      gallery.info = app::read_reference_info(ref_table);
    }
    const std::size_t n_ref = gallery.info.angles.size(), n_img = images.rows.rows();
    if (keep_best_ > n_ref)
      throw_input_error(ref_name, "--keepBestN " + std::to_string(keep_best_) + " is larger than the number of references (" +
                                      std::to_string(n_ref) + ")");
    const Shape is = app::first_image_shape(images);
    const Shape rs = volume_mode ? gallery.images.shape() : app::first_image_shape(ref_table);
    if (is.x != is.y) throw_input_error(input, "images must be square (got " + to_string(is) + ")");
    if (rs.x != is.x || rs.y != is.y)
      throw_input_error(input, "images are " + std::to_string(is.x) + "x" + std::to_string(is.y) + " px but the references (" +
                                   ref_name + ") are " + std::to_string(rs.x) + "x" + std::to_string(rs.y) + " px");
    const int box = static_cast<int>(is.x);
    if (box < 6) throw_input_error(input, "images of " + std::to_string(box) + " px are too small (at least 6, better 16)");
    if (box % 2 != 0 && rank == 0)
      log_warning("odd image size " + std::to_string(box) + ": the last column and row are dropped (as Xmipp does); the "
                  "particle centre moves by half a pixel");
    const int even = box - box % 2;

    // Data: all references, this rank's contiguous share of the images.
    const auto t_load = Clock::now();
    Image<float> refs = volume_mode ? std::move(gallery.images) : app::load_images(ref_table, 0, n_ref, box);
    if (volume_mode && box % 2 != 0) refs = crop_even(refs);
    const mpi::Range mine = mpi::split_range(n_img, rank, size);
    Image<float> local = app::load_images(images, mine.begin, mine.size(), box);
    const double load_s = since(t_load);

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
    // Every float zero (the pose too, not the identity) outside this rank's columns: the MPI merge is a sum.
    align::PairResult zero;
    zero.pose = {0, 0, 0, 0, 0, 0};
    std::vector<align::PairResult> results(n_ref * n_img, zero);
    const auto t_align = Clock::now();
    const std::size_t total = n_ref * mine.size();
    std::size_t next_report = total / 10;
    auto progress = [&](std::size_t done) {
      if (rank != 0 || done < next_report || total == 0) return;
      log_info("aligned " + std::to_string(100 * done / total) + " % of this rank's pairs");
      next_report = done + total / 10;
    };
    if (mine.size() > 0) {
      std::vector<align::PairResult> part(n_ref * mine.size());
      if (swap) {
        backend->align_all(local.cview(), refs.cview(), s, part.data(), progress);
        for (std::size_t i = 0; i < mine.size(); ++i)
          for (std::size_t r = 0; r < n_ref; ++r) {
            align::PairResult p = part[i * n_ref + r];
            p.pose = align::pose_inverse(p.pose); // aligns the image to the reference
            results[r * n_img + mine.begin + i] = p;
          }
      } else {
        backend->align_all(refs.cview(), local.cview(), s, part.data(), progress);
        for (std::size_t r = 0; r < n_ref; ++r)
          for (std::size_t i = 0; i < mine.size(); ++i) results[r * n_img + mine.begin + i] = part[r * mine.size() + i];
      }
    }
    const double align_s = since(t_align);
#if FROST_HAVE_MPI
    if (size > 1) // every pair is non-zero on exactly one rank, so the sum is the merge
      mpi::reduce_sum_in_place(reinterpret_cast<float*>(results.data()),
                               results.size() * (sizeof(align::PairResult) / sizeof(float)), 0);
#endif
    if (rank != 0) return 0;

    const auto t_weights = Clock::now();
    std::vector<float> cc(results.size());
    for (std::size_t k = 0; k < results.size(); ++k) cc[k] = results[k].cc;
    const auto weights = align::significance_weights(cc, n_ref, n_img, gallery.info.angles, params().get_real("--angDistance"));
    const auto rows = align::assign_best(cc, weights, n_ref, n_img, keep_best_, params().flag_value("--useWeightInsteadOfCC"));
    const double weights_s = since(t_weights);

    const auto t_write = Clock::now();
    const std::string odir = params().get_text("--odir");
    const std::string out = join_output(odir, params().get_text("-o"));
    const std::filesystem::path parent = std::filesystem::path(out).parent_path();
    if (!parent.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(parent, ec);
      if (ec) throw_input_error(parent.string(), "cannot create the output directory: " + ec.message());
    }
    const bool star_out = out.size() > 5 && out.compare(out.size() - 5, 5, ".star") == 0;
    const std::string xmd_path = star_out ? sibling(out, ".xmd") : out, star_path = star_out ? out : sibling(out, ".star");
    const meta::Block block = app::result_block(images, gallery.info, rows, results);
    app::write_results(block, xmd_path, star_path, pixel, even);
    if (params().given("--write-cc-matrix")) app::write_cc_matrix(params().get_text("--write-cc-matrix"), cc);
    if (params().given("--oUpdatedRefs")) {
      if (keep_best_ > 1)
        log_info("--oUpdatedRefs with --keepBestN " + std::to_string(keep_best_) +
                 ": an image contributes to the average of every reference it is kept for");
      // This rank aligned only its share of the images; the averages need all of them.
      const Image<float> all = mine.size() == n_img ? std::move(local) : app::load_images(images, 0, n_img, box);
      const align::ClassAverages classes = align::class_averages(all.cview(), rows, results, n_ref);
      app::write_updated_references(join_output(odir, params().get_text("--oUpdatedRefs")), classes, gallery.info,
                                    block, rows);
    }
    const double write_s = since(t_write);

    char line[320];
    std::snprintf(line, sizeof line,
                  "%zu rows for %zu images -> %s, %s; %.0f pairs/s; time [s]: load %.2f, align %.2f, weights %.2f, "
                  "write %.2f, wall %.2f",
                  rows.size(), n_img, xmd_path.c_str(), star_path.c_str(), double(n_ref * n_img) / std::max(1e-9, align_s),
                  load_s, align_s, weights_s, write_s, since(t_start));
    log_info(line);
    return 0;
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
};

} // namespace
} // namespace frost

int main(int argc, char** argv) { return frost::AlignSignificant().main(argc, argv); }
