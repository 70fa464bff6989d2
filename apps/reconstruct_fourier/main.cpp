// frost_reconstruct_fourier: 3-D reconstruction by direct Fourier inversion with a Kaiser-Bessel
// kernel, gather insertion, point-group symmetry and half maps, on the CPU, GPUs and MPI ranks
// (docs/reconstruct_fourier.md; options follow Xmipp's reconstruct_fourier).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>

#include <unistd.h>

#include "frost/cli/program.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/core/progress.hpp"
#include "frost/core/threads.hpp"
#include "frost/fft/size_advisor.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/io/image_io.hpp"
#include "frost/metadata/image_location.hpp"
#include "frost/picture/png.hpp"
#include "frost/reconstruction/backend.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/fsc.hpp"
#include "frost/reconstruction/grid_support.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/tuning/options.hpp"
#include "half_grid_reduce.hpp"
#include "outputs.hpp"
#include "particle_table.hpp"
#include "particle_images.hpp"

#include "frost/mpi/run_ranks.hpp"
#if FROST_HAVE_MPI
#include "frost/mpi/collectives.hpp"
#endif

namespace frost {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string mib(double bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f MiB", bytes / (1024.0 * 1024.0));
  return b;
}

class ReconstructFourier : public cli::Program {
public:
  ReconstructFourier()
      : Program("frost_reconstruct_fourier",
                "3-D reconstruction by direct Fourier inversion: each image's spectrum is inserted as a central\n"
                "slice with a Kaiser-Bessel kernel (gather pattern), once per symmetry element; data and weights\n"
                "are divided, inverse transformed, cropped and gridding corrected. Reads RELION STAR or Xmipp\n"
                "XMD; writes MRC float32 with the pixel size set. Runs on the CPU, on GPUs (--device) and\n"
                "under mpirun (images spread over ranks, grids reduced once).") {}

protected:
  void define(cli::Params& p) override {
    p.text_required("-i", "particle metadata (STAR or XMD) with image, angles and shifts; relative image "
                          "paths are looked up beside it first, then in the working directory").alias("--input")
        .meta("particles.star").in_section("Input/output").input_file();
    p.text("-o", "rec_fourier.mrc", "output map").alias("--output").alias("--o").meta("map.mrc")
        .in_section("Input/output").output_file();
    p.real("--sampling", 0.0, "pixel size [A/px]; 0 = from the metadata (RELION optics rlnImagePixelSize, "
                              "rlnDetectorPixelSize/rlnMagnification, Xmipp samplingRate)").alias("--angpix").at_least(0)
        .in_section("Input/output");
    p.flag("--missing_angles_zero", "a missing angle column (rlnAngleRot/Tilt/Psi, Xmipp angleRot/Tilt/Psi or "
                                    "rot/tilt/psi) means 0 for every image; without it such metadata is an error")
        .alias("--missing-angles-zero").in_section("Input/output");
    p.text_optional("--save_weights", "write the folded weights (M/2+1) x (M+1) x (M+1) to this MRC")
        .meta("weights.mrc").in_section("Input/output").output_file();
    p.flag("--halves", "also reconstruct two half maps (<root>_half1.mrc, _half2.mrc) and their FSC "
                       "(<root>_fsc.star, _fsc.txt); halves from rlnRandomSubset, else a random split")
        .in_section("Input/output");
    p.integer("--subset", 0, "use only half set 1 or 2 (rlnRandomSubset, else the random split); 0 = all")
        .range(0, 2).in_section("Input/output");
    p.integer("--split_seed", 1, "seed of the random half split when the metadata has no subsets").at_least(0)
        .in_section("Input/output");
    p.text_optional("--reference", "also report the FSC of the map against this map (e.g. a known phantom); "
                                   "written to <root>_fsc_reference.txt").meta("ref.mrc").in_section("Input/output")
        .input_file();
    p.flag("--pictures", "also write PNG pictures: <root>_sections.png (central xy, xz, yz sections of the map) "
                         "and the FSC curves beside their text files (<root>_fsc.png, <root>_fsc_reference.png)")
        .in_section("Input/output");
    p.integer("--class", 0, "use only particles of this class (rlnClassNumber / ref3d); 0 = all").at_least(0)
        .in_section("Input/output");

    p.text("--sym", "c1", "point-group symmetry: c1, cN, ci, cs, cNv, cNh, sN, dN, dNv, dNh, t, td, th, o, oh, "
                          "i, i1-i4, ih, i1h-i4h").in_section("Reconstruction");
    p.choice("--sym_mode", "insert", {"insert", "grid"},
             "insert: every image once per symmetry element (Xmipp, exact); grid: every image once, then the "
             "data and weight grids symmetrised by trilinear interpolation (RELION; much faster for large "
             "groups, interpolates the grid a second time)").in_section("Reconstruction");
    p.reals("--padding", {2.0, 2.0}, "padding factor of the images (and of the volume; must be equal)")
        .in_section("Reconstruction");
    p.real("--max_resolution", 0.5, "frequency limit as a digital frequency (0.5 = Nyquist)").range(1e-3, 0.5)
        .in_section("Reconstruction");
    p.real("--maxres", 0.0, "frequency limit in A (RELION style); overrides --max_resolution").at_least(0)
        .in_section("Reconstruction");
    p.reals("--blob", {1.9, 0.0, 15.0}, "Kaiser-Bessel kernel: radius [padded samples], order (0-4), alpha")
        .in_section("Reconstruction");
    p.choice("--kernel", "auto", {"auto", "blob", "separable"},
             "blob: Xmipp's radial blob, gathered per voxel; separable: the product of three 1-D Kaiser-Bessel "
             "windows with the --blob parameters (radius <= 2; without --blob 1.5 0 12), scattered from the samples; "
             "auto: separable when no rank of the job uses a GPU and --blob is not given, else blob")
        .in_section("Reconstruction");
    p.choice("--interp", "lookup", {"lookup", "dynamic"}, "blob weights from a table or computed per tap")
        .in_section("Reconstruction");
    p.flag("--fast", "approximate mode: nearest-neighbour insertion, then one blob convolution").in_section("Reconstruction");
    p.choice("--gridding", "kb", {"kb", "xmipp"},
             "gridding correction: kb = kernel transform; xmipp = also sinc^2 as Xmipp does").in_section("Reconstruction");
    p.flag("--xmipp_compat", "Xmipp layout: drop the Nyquist column of every sample").in_section("Reconstruction");
    p.choice("--fft_size_policy", "exact", {"exact", "portable"},
             "padded image size: exact = round(N * padding) as Xmipp; portable = the next fast FFT size")
        .alias("--fft-size-policy").in_section("Reconstruction");
    p.flag("--weight", "use per-image weights (weight, or rlnParticleFigureOfMerit)").in_section("Reconstruction");
    p.flag("--fom_weighting", "weights from rlnParticleFigureOfMerit (RELION)").in_section("Reconstruction");

    p.flag("--useCTF", "correct the CTF (parameters from the metadata)").alias("--ctf").in_section("CTF");
    p.choice("--ctf_mode", "invert", {"invert", "wiener"},
             "invert = Xmipp thresholded inversion; wiener = RELION sum(CTF F) / sum(CTF^2)").in_section("CTF");
    p.real("--minCTF", 0.01, "invert mode: |CTF| below this is not inverted").at_least(0).in_section("CTF");
    p.flag("--phaseFlipped", "invert mode: images are already phase flipped").in_section("CTF");
    p.flag("--only_flip_phases", "wiener mode: correct the phase only").in_section("CTF");
    p.flag("--ctf_intact_first_peak", "wiener mode: leave the CTF at 1 up to its first peak").in_section("CTF");
    p.flag("--ctf_premultiplied", "wiener mode: images are already multiplied by their CTF").in_section("CTF");
    p.real("--wiener_eps", 0.0, "wiener mode: added to the weights before the division").at_least(0).in_section("CTF");

    add_device_option(p, "auto");
    tuning::declare_tuning_options(p);
    p.integer("--bufferSize", 25, "images per loader batch").alias("--buffer_size").range(1, 100000)
        .in_section("Execution");
    p.integer("--streams", 4, "GPU: loader threads (CUDA streams) per GPU").alias("-threadsPerGPU").range(1, 64)
        .in_section("Execution");
    p.integer("--mpi_job_size", 1000, "images per MPI job (jobs go to the ranks in turn)").range(1, 100000000)
        .in_section("Execution");
    p.integer("-gpusPerNode", 0, "Xmipp MPI GPU option: rank r uses GPU r mod gpusPerNode").at_least(0)
        .in_section("Execution").advanced();
    p.integer("--iter", 1, "rejected: frost has no iterative weighting; use the default").advanced();
    p.flag("--prepare_fsc", "rejected: use --halves").advanced();
  }

  void validate() override {
    const auto pad = params().get_reals("--padding");
    if (pad.empty() || pad.size() > 2) throw_usage_error("--padding: give one or two values");
    if (pad.size() == 2 && pad[0] != pad[1] && !params().flag_value("--xmipp_compat"))
      throw_usage_error("--padding: image and volume padding must be equal (Xmipp's unequal padding is inconsistent)");
    if (params().given("--iter") && params().get_int("--iter") != 1)
      throw_usage_error("--iter: frost implements only the simple weight division; use --halves for FSC");
    if (params().flag_value("--prepare_fsc")) throw_usage_error("--prepare_fsc: use --halves instead");
    const auto blob = params().get_reals("--blob");
    if (blob.size() != 3) throw_usage_error("--blob: give radius, order and alpha");
    if (!(blob[0] > 0) || blob[1] < 0 || blob[1] > 4 || blob[1] != std::floor(blob[1]) || blob[2] < 0)
      throw_usage_error("--blob: need radius > 0, integer order 0-4, alpha >= 0");
    if (params().flag_value("--halves") && params().get_int("--subset") != 0)
      throw_usage_error("--halves and --subset exclude each other");
    geom::parse_symmetry(params().get_text("--sym")); // unknown names are usage errors, reported now
    if (params().flag_value("--pictures") && !picture::png_supported())
      throw_usage_error("--pictures: frost was built without PNG support (libpng not found at configure time; "
                        "install libpng-dev and configure again)");
  }

  /// The image stacks the metadata names (resolved as the run resolves them) are inputs; the
  /// half maps, FSC files, pictures and the reference FSC are outputs beside -o.
  void add_run_files(RunFiles& files) const override {
    const std::string input = params().get_text("-i");
    if (::access(input.c_str(), R_OK) == 0) { // else the check of -i reports it
      std::vector<std::string> images;
      for (const auto& p : particle_table().particles) images.push_back(p.image);
      for (const auto& s : meta::data_files(images)) files.input("image stack of " + input, s);
    }
    const std::string root = app::output_root(params().get_text("-o"));
    const bool pictures = params().flag_value("--pictures");
    if (params().flag_value("--halves")) {
      files.output("half map 1", root + "_half1.mrc");
      files.output("half map 2", root + "_half2.mrc");
      files.output("the half-map FSC (STAR)", root + "_fsc.star");
      files.output("the half-map FSC (text)", root + "_fsc.txt");
      if (pictures) files.output("the FSC picture", root + "_fsc.png");
    }
    if (pictures) files.output("the sections picture", root + "_sections.png");
    if (params().given("--reference")) {
      files.output("the FSC against --reference", root + "_fsc_reference.txt");
      if (pictures) files.output("the picture of the FSC against --reference", root + "_fsc_reference.png");
    }
  }

  int run() override {
    return mpi::run_ranks(launcher_size(), [this](int rank, int size) { return run_rank(rank, size); });
  }

private:
  /// The particle table, read once: by the checks before the run (its stacks are inputs) and
  /// by the run.
  const app::ParticleTable& particle_table() const {
    if (!table_) {
      app::ParticleTableOptions topt;
      topt.need_ctf = params().flag_value("--useCTF");
      topt.use_weights = params().flag_value("--weight") || params().flag_value("--fom_weighting");
      topt.fom_weighting = params().flag_value("--fom_weighting");
      topt.klass = static_cast<int>(params().get_int("--class"));
      topt.sampling = params().get_real("--sampling");
      topt.missing_angles_zero = params().flag_value("--missing_angles_zero");
      table_ = app::read_particle_table(params().get_text("-i"), topt);
    }
    return *table_;
  }
  mutable std::optional<app::ParticleTable> table_;

  recon::ReconstructionSettings settings_from_options(double pixel_size, int box) const {
    recon::ReconstructionSettings s;
    s.box = box;
    s.padding = params().get_reals("--padding")[0];
    s.pixel_size = pixel_size;
    s.max_resolution = params().get_real("--max_resolution");
    if (params().get_real("--maxres") > 0) {
      s.max_resolution = pixel_size / params().get_real("--maxres");
      if (s.max_resolution > 0.5) {
        log_warning("--maxres " + std::to_string(params().get_real("--maxres")) + " A is beyond Nyquist; using 0.5");
        s.max_resolution = 0.5;
      }
    }
    const auto blob = params().get_reals("--blob");
    s.blob = {blob[0], static_cast<int>(blob[1]), blob[2]};
    // --kernel auto is resolved by resolve_auto_kernel once the job's devices are known.
    s.kernel = params().get_text("--kernel") == "separable" ? recon::Kernel::Separable : recon::Kernel::Blob;
    if (s.kernel == recon::Kernel::Separable && !params().given("--blob")) s.blob = {1.5, 0, 12.0};
    s.interp = params().get_text("--interp") == "dynamic" ? recon::Interpolation::Dynamic : recon::Interpolation::Lookup;
    s.fast = params().flag_value("--fast");
    s.sym_mode = params().get_text("--sym_mode") == "grid" ? recon::SymMode::Grid : recon::SymMode::Insert;
    s.gridding = params().get_text("--gridding") == "xmipp" ? recon::Gridding::Xmipp : recon::Gridding::Kb;
    s.xmipp_compat = params().flag_value("--xmipp_compat");
    if (params().flag_value("--useCTF"))
      s.ctf = params().get_text("--ctf_mode") == "wiener" ? recon::CtfMode::Wiener : recon::CtfMode::Invert;
    s.min_ctf = params().get_real("--minCTF");
    s.phase_flipped = params().flag_value("--phaseFlipped");
    s.only_flip_phases = params().flag_value("--only_flip_phases");
    s.intact_first_peak = params().flag_value("--ctf_intact_first_peak");
    s.ctf_premultiplied = params().flag_value("--ctf_premultiplied");
    s.wiener_eps = params().get_real("--wiener_eps");
    s.use_weights = params().flag_value("--weight") || params().flag_value("--fom_weighting");
    if (params().get_text("--fft_size_policy") == "portable") {
      // The padded image size is free to grow a little: ask the advisor for a fast square 2-D size.
      const index_t p0 = static_cast<index_t>(std::lround(box * s.padding));
      fft::SizeQuery q;
      q.shape = {p0, p0, 1};
      q.signals = params().get_int("--bufferSize");
      q.square_only = true;
      q.parity = {fft::Parity::Even, fft::Parity::Even, fft::Parity::Any};
      q.policy = fft::Policy::Portable;
      try {
        s.padded_size = static_cast<int>(fft::advise(q).shape.x);
      } catch (const std::exception&) {
        s.padded_size = static_cast<int>(p0); // no better size within the limit
      }
    }
    return s;
  }

  /// --kernel auto (docs/reconstruct_fourier.md#the-default-kernel): the separable kernel when no
  /// rank of the job inserts on a GPU and --blob is not given, else the blob. One choice for the
  /// whole job: the ranks' grids are summed, and two kernels must not meet in one grid.
  void resolve_auto_kernel(recon::ReconstructionSettings& s, bool uses_gpu, int size) const {
    if (params().get_text("--kernel") != "auto") return;
    double gpu_ranks = uses_gpu ? 1.0 : 0.0;
#if FROST_HAVE_MPI
    if (size > 1) mpi::allreduce_sum_in_place(&gpu_ranks, 1);
#else
    (void)size;
#endif
    if (gpu_ranks > 0 || params().given("--blob")) return;
    s.kernel = recon::Kernel::Separable;
    s.blob = {1.5, 0, 12.0};
  }

  /// Half sets: rlnRandomSubset when present, else a seeded random split into equal halves.
  void assign_subsets(app::ParticleTable& table) const {
    if (table.has_subsets) {
      for (const auto& p : table.particles)
        if (p.subset != 1 && p.subset != 2)
          throw_input_error(table.path, "row " + std::to_string(p.row + 1) + ": rlnRandomSubset must be 1 or 2");
      return;
    }
    std::vector<std::size_t> order(table.particles.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937 rng(static_cast<std::uint32_t>(params().get_int("--split_seed")));
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t k = 0; k < order.size(); ++k) table.particles[order[k]].subset = k < order.size() / 2 ? 1 : 2;
  }

  int run_rank(int rank, int size) {
    const auto t_start = Clock::now();
    const std::string input = params().get_text("-i");
    const std::string output = params().get_text("-o"); // its folder was made by the checks
    const bool halves = params().flag_value("--halves");
    const bool pictures = params().flag_value("--pictures");
    const int subset = static_cast<int>(params().get_int("--subset"));

    particle_table();
    app::ParticleTable table = std::move(*table_); // read by the checks before the run
    table_.reset();
    if (!table.missing_angles.empty()) {
      std::string labels;
      for (const auto& l : table.missing_angles) labels += " " + l;
      log_warning(input + " has no" + labels + ": taken as 0 for every image (--missing_angles_zero)");
    }
    if (halves || subset != 0) assign_subsets(table);
    if (halves) require_both_halves(table);
    if (subset != 0) {
      std::vector<recon::ParticleRecord> kept;
      for (auto& p : table.particles)
        if (p.subset == subset) kept.push_back(std::move(p));
      table.particles = std::move(kept);
      if (table.particles.empty()) throw_input_error(input, "no particles in half set " + std::to_string(subset));
    }

    app::ParticleImages stacks(input);
    const Shape item = stacks.item_shape(table.particles.front());
    if (item.x != item.y)
      throw_input_error(table.particles.front().image, "images must be square (got " + std::to_string(item.x) + "x" +
                                                           std::to_string(item.y) + ")");
    check_stated_image_size(table, item);
    double pixel = table.pixel_size;
    if (pixel <= 0) {
      pixel = 1.0;
      log_warning(input + " has no pixel size and --sampling was not given; writing 1 A/px");
    } else {
      log_detail("pixel size " + std::to_string(pixel) + " A from " + table.pixel_size_source);
    }
    // The reference is read and its box checked before the work, not after it.
    std::optional<io::LoadedImage> reference;
    if (rank == 0 && params().given("--reference")) {
      reference = io::read_volume(params().get_text("--reference"));
      if (reference->image.shape() != Shape::volume(item.x, item.x, item.x))
        throw_input_error(params().get_text("--reference"),
                          "reference is " + to_string(reference->image.shape()) + " but the map will be " +
                              to_string(Shape::volume(item.x, item.x, item.x)));
    }
    recon::ReconstructionSettings settings = settings_from_options(pixel, static_cast<int>(item.x));
    const recon::GridLayout layout = recon::make_grid_layout(settings);
    const geom::SymmetryGroup group = geom::parse_symmetry(params().get_text("--sym"));
    const int grids = halves ? 2 : 1;

    // This rank's images: jobs of --mpi_job_size in turn (deterministic; every rank reduces).
    const std::size_t job = static_cast<std::size_t>(params().get_int("--mpi_job_size"));
    std::vector<recon::ParticleRecord> mine;
    for (std::size_t i = 0; i < table.particles.size(); ++i)
      if (static_cast<int>((i / job) % static_cast<std::size_t>(size)) == rank) mine.push_back(table.particles[i]);

    DeviceSelection dev = device();
    std::vector<int> gpus;
    if (!dev.cpu) {
      const int gpn = static_cast<int>(params().get_int("-gpusPerNode"));
      if (gpn > 0) gpus = {rank % gpn};
      else if (size > 1) gpus = {dev.gpu_for_rank(rank)};
      else gpus = dev.gpus;
    }
    resolve_auto_kernel(settings, !gpus.empty(), size);
    const int streams = static_cast<int>(params().get_int("--streams"));

    const double cube = double(layout.cube_voxels()) * 12.0 * grids;
    const double half = double(layout.half_voxels()) * 24.0 * grids;
    const double fin = double(layout.padded) * layout.padded * (layout.padded / 2 + 1) * 8.0 +
                       double(layout.padded) * layout.padded * layout.padded * 4.0;
    log_info("reconstruction: " + recon::describe(layout) + ", blob " + std::to_string(settings.blob.radius) + "/" +
             std::to_string(settings.blob.order) + "/" + std::to_string(settings.blob.alpha) + ", symmetry " +
             group.name() + " (" + std::to_string(group.order()) + " elements: " + symmetry_plan_text(settings, group) + "), " +
             (settings.fast ? "fast" : settings.kernel == recon::Kernel::Separable ? "precise, separable kernel" : "precise") + ", pixel " + std::to_string(pixel) + " A, " +
             std::to_string(table.particles.size()) + " images (" + std::to_string(table.disabled) + " disabled, " +
             std::to_string(table.other_class) + " other class), " + std::to_string(size) + " rank(s), buffer " +
             std::to_string(params().get_int("--bufferSize")));
    log_info("memory plan per rank: accumulation cube(s) " + mib(cube) + (gpus.empty() ? " (host)" : " (per GPU)") +
             ", folded half grid(s) " + mib(half) + " (host, double), finalisation " + mib(fin) + " (rank 0)");

    const long long spaces_per_launch =
        params().get_int("--bufferSize") * static_cast<long long>(recon::plan_symmetry(group, settings.sym_mode).inserted.order());
    const double buffer = static_cast<double>(params().get_int("--bufferSize"));
    const double estimated_launches = std::ceil(static_cast<double>(mine.size()) / buffer) + (grids - 1);
    recon::ReconstructionBackendOptions backend;
    backend.streams_per_device = streams;
    backend.tuning = tuning::tuning_options_from(params());
    backend.spaces_per_launch = spaces_per_launch;
    backend.estimated_launches = estimated_launches;
    auto accumulator = recon::make_reconstruction_backend(DeviceSelection{gpus.empty(), gpus}, settings, layout, grids, backend);
    log_info("insertion on " + accumulator->describe() + ", " + std::to_string(num_threads()) + " loader threads");

    recon::AccumulateOptions aopt;
    aopt.buffer_size = static_cast<int>(params().get_int("--bufferSize"));
    aopt.grids = grids;
    Progress progress("frost_reconstruct_fourier", static_cast<std::int64_t>(mine.size()), "images");
    aopt.progress = &progress;
    recon::PhaseTimes times;
    const ImageLoaderRef loader{&stacks};
    auto half_grids = recon::accumulate(settings, layout, group, mine, loader, *accumulator, aopt, &times);
    progress.finish();
    accumulator.reset();

    auto t_reduce = Clock::now();
    app::reduce_to_root(half_grids, recon::half_grid_support_radius(layout, recon::grid_reach(settings)));
    times.reduce = since(t_reduce);
    if (rank != 0) return 0;

    auto t_fin = Clock::now();
    // The inverse 3-D FFT runs on the first GPU when this run uses GPUs (falls back to the CPU
    // when cuFFT cannot plan or allocate it).
    recon::FinaliseOptions fopt;
    if (!gpus.empty()) {
      fopt.backend = fft::Backend::Cuda;
      fopt.device = gpus.front();
    }
    auto finalise = [&](recon::HalfGrid& g) {
      if (fopt.backend == fft::Backend::Cuda) {
        try {
          return recon::finalise(g, settings, layout, fopt); // (its in-place symmetrisation is idempotent)
        } catch (const Error& e) {
          log_warning(std::string("inverse FFT on the GPU failed (") + e.what() + "); using the CPU");
          fopt.backend = fft::Backend::Cpu;
        }
      }
      return recon::finalise(g, settings, layout, fopt);
    };
    const std::string label = "frost_reconstruct_fourier " + group.name();
    const std::string root = app::output_root(output);
    // Every output of the run appears together when the set commits, or none does (an error
    // or a kill before that leaves the previous outputs as they were).
    OutputSet outputs;
    std::vector<std::string> written;
    Image<float> full;
    double write_s = 0;
    auto timed_write = [&](const std::string& path, const Image<float>& v, const std::string& what) {
      auto t = Clock::now();
      app::write_map(path, v, pixel, label, what); // refuses non-finite voxels
      write_s += since(t);
      written.push_back(path);
    };
    if (params().given("--save_weights")) {
      recon::HalfGrid w = half_grids[0];
      if (grids == 2) w += half_grids[1];
      timed_write(params().get_text("--save_weights"), recon::weights_volume(w), "the weights volume");
    }
    std::string fsc_line;
    if (grids == 2) {
      recon::HalfGrid sum = half_grids[0];
      sum += half_grids[1];
      full = finalise(sum);
      Image<float> h1 = finalise(half_grids[0]);
      Image<float> h2 = finalise(half_grids[1]);
      timed_write(root + "_half1.mrc", h1, "half map 1");
      timed_write(root + "_half2.mrc", h2, "half map 2");
      const recon::FscCurve fsc = recon::fsc_volumes(h1.cview(), h2.cview(), pixel);
      app::write_fsc_star(root + "_fsc.star", fsc);
      app::write_fsc_text(root + "_fsc.txt", fsc);
      written.push_back(root + "_fsc.star");
      written.push_back(root + "_fsc.txt");
      if (pictures) {
        app::write_fsc_png(root + "_fsc.png", fsc);
        written.push_back(root + "_fsc.png");
      }
      char line[160];
      std::snprintf(line, sizeof line, "half-map FSC: %.2f A at 0.143, %.2f A at 0.5 (%s_fsc.star)",
                    fsc.resolution_0143(), fsc.resolution_05(), root.c_str());
      fsc_line = line;
    } else {
      full = finalise(half_grids[0]);
    }
    times.finalise = since(t_fin) - write_s;
    timed_write(output, full, "the map");
    if (pictures) {
      app::write_sections_png(root + "_sections.png", full);
      written.push_back(root + "_sections.png");
    }
    std::string reference_line;
    if (reference) reference_line = reference_fsc(full, reference->image, pixel, root, written);
    auto t_commit = Clock::now();
    outputs.commit();
    write_s += since(t_commit);
    times.write = write_s;
    for (const auto& w : written) log_info("wrote " + w);
    if (!fsc_line.empty()) log_info(fsc_line);
    if (!reference_line.empty()) log_info(reference_line);

    char line[400];
    std::snprintf(line, sizeof line,
                  "timing [s]: load %.2f, prepare %.2f (thread sums), insert %.2f, finish %.2f, symmetrise %.2f, "
                  "reduce %.2f, finalise %.2f, write %.2f; wall %.2f",
                  times.load, times.prepare, times.insert, times.finish, times.symmetrise, times.reduce,
                  times.finalise, times.write,
                  since(t_start));
    log_info(line);
    return 0;
  }

  /// "5 inserted per image, grid summed over 12 exactly" (grid_symmetry.hpp).
  static std::string symmetry_plan_text(const recon::ReconstructionSettings& settings, const geom::SymmetryGroup& group) {
    const recon::SymmetryPlan plan = recon::plan_symmetry(group, settings.sym_mode);
    std::string t = std::to_string(plan.inserted.order()) + " inserted per image";
    if (!plan.grid.empty())
      t += ", grid summed over " + std::to_string(plan.grid.size()) + (plan.exact ? " exactly" : " by trilinear interpolation");
    return t;
  }

  /// FSC of the map against --reference (its box checked before the work), written as text
  /// (and as a picture with --pictures); returns the line to log.
  std::string reference_fsc(const Image<float>& map, const Image<float>& ref, double pixel, const std::string& root,
                            std::vector<std::string>& written) const {
    const recon::FscCurve fsc = recon::fsc_volumes(map.cview(), ref.cview(), pixel);
    app::write_fsc_text(root + "_fsc_reference.txt", fsc, "against the reference map");
    written.push_back(root + "_fsc_reference.txt");
    if (params().flag_value("--pictures")) {
      app::write_fsc_png(root + "_fsc_reference.png", fsc);
      written.push_back(root + "_fsc_reference.png");
    }
    char line[200];
    std::snprintf(line, sizeof line, "FSC against %s: %.2f A at 0.5, %.2f A at 0.143 (%s_fsc_reference.txt)",
                  params().get_text("--reference").c_str(), fsc.resolution_05(), fsc.resolution_0143(), root.c_str());
    return line;
  }

  /// --halves needs particles in both half sets: an empty half gives an all-zero FSC that
  /// reads as a result.
  void require_both_halves(const app::ParticleTable& table) const {
    std::size_t count[3] = {0, 0, 0};
    for (const auto& p : table.particles) ++count[p.subset == 1 ? 1 : 2];
    for (int h : {1, 2}) {
      if (count[h] > 0) continue;
      const std::string why = table.has_subsets
                                  ? "all " + std::to_string(table.particles.size()) + " usable particles have rlnRandomSubset " +
                                        std::to_string(3 - h)
                                  : "the random split of " + std::to_string(table.particles.size()) +
                                        " usable particle(s) leaves it empty";
      throw_input_error(table.path, "--halves: half set " + std::to_string(h) + " is empty (" + why +
                                        "); no FSC can be computed");
    }
  }

  /// RELION's rlnImageSize (of the optics group or the row) must be the size of the stack's
  /// images: a disagreement means the metadata belongs to other images.
  static void check_stated_image_size(const app::ParticleTable& table, const Shape& item) {
    if (table.stated_image_size.empty()) return;
    for (const auto& p : table.particles) {
      const long long stated = table.stated_image_size[p.row];
      if (stated != item.x)
        throw_input_error(table.path, "row " + std::to_string(p.row + 1) + ": " + table.stated_image_size_label +
                                          " is " + std::to_string(stated) + " but the images of " +
                                          table.particles.front().image + " are " + std::to_string(item.x) + "x" +
                                          std::to_string(item.y) + " px");
    }
  }

  /// Adapts the particle images to the loader callback the pipeline takes.
  struct ImageLoaderRef {
    app::ParticleImages* cache;
    void operator()(const recon::ParticleRecord& p, Image<float>& out) const { cache->load(p, out); }
  };
};

} // namespace
} // namespace frost

int main(int argc, char** argv) { return frost::ReconstructFourier().main(argc, argv); }
