// frost_bench_reconstruction: Fourier reconstruction (docs/reconstruct_fourier.md#benchmarks) on
// synthetic images held in memory: images/s end to end, the split of load / prepare / insert /
// finish / finalise, and the insertion kernel's voxel-update and tap rates against the GPU's
// memory bandwidth and FP32 peak. The CPU path runs the same pipeline at scaled-down sizes.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "../common/bench_main.hpp"
#include "bench_recon.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/accumulator.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/reconstruction/sample_preparer.hpp"
#include "frost/reconstruction/synthetic_problem.hpp"

namespace frost::bench {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

const char* kUsage =
    "usage: frost_bench_reconstruction [--suite full|check] [--quick] [--scale F] [--budget-s S]\n"
    "                                  [--box N --images K [--sym S] [--fast] [--sym_mode insert|grid]]\n"
    "                                  [--device cpu|0|0,1] [--streams S] [--buffer B] [--threads T]\n"
    "                                  [--interp lookup|dynamic] [--kernel brick|column] [--kernel-reps R]\n"
    "                                  [--no-cpu] [--no-gpu] [--cpu-fft]\n"
    "Reconstructs synthetic N x N images (a few Gaussian blobs, in memory) at random poses with pad 2\n"
    "and the default blob, and reports images/s, the time split and the insertion kernel's rates.\n"
    "  --suite full   (default) GPU: 64^2 x 100k, 128^2 x 30k (precise and --fast), 256^2 x 10k and\n"
    "                 512^2 x 10k images with I symmetry (60), and 256^2 x 50k with C1; CPU: the same\n"
    "                 boxes with far fewer images. Then the four I cases with --sym_mode grid (each\n"
    "                 image inserted once, the grid symmetrised: RELION's method, not Xmipp's).\n"
    "  --suite check  the device-check selection: the GPU cases of the full suite in full (128^2 I\n"
    "                 also with the brick kernel, --cpu-fft, --fast and --sym_mode grid), the CPU\n"
    "                 cases with fewer images (images/s and the extrapolated full-size time).\n"
    "  --scale F      multiply every case's image count by F; --quick = --scale 0.05\n"
    "  --budget-s S   start no new case after S seconds (0 = no budget)\n"
    "  --box N        one case instead of a suite (with --images, default 1000; --sym, default i)\n"
    "  --device       cpu, or GPU ids (default 0 when a GPU is visible; the suites run their CPU cases too)\n"
    "  --streams S    CUDA streams (loader lanes) per GPU, default 4; --buffer B images per batch, default 25\n"
    "  --threads T    loader threads in all (default all cores); the CPU insertion uses them too\n"
    "  --kernel       GPU insertion kernel: column (default, the published design) or brick; the\n"
    "                 suites run 128^2 x 30k I precise with both\n"
    "  --kernel-reps  launches of the kernel-only timing (default 5)\n"
    "  --cpu-fft      GPU cases prepare the samples (pad, FFT, crop) on the CPU loaders instead of the GPU\n";

struct Options {
  std::string suite = "full";
  double scale = 1.0;
  double budget_s = 0.0;
  int box = 0;
  long long images = 1000;
  std::string sym = "i";
  bool fast = false;
  bool grid = false; ///< --sym_mode grid
  bool cpu_fft = false; ///< --cpu-fft: GPU cases prepare samples on the CPU
  std::string device;
  int streams = 4, buffer = 25, threads = 0, kernel_reps = 5;
  recon::Interpolation interp = recon::Interpolation::Lookup;
  std::string kernel = "column";
  bool cpu = true, gpu = true;
};

struct Case {
  bool gpu = true;
  int box = 0;
  long long images = 0;      ///< images run
  long long full_images = 0; ///< the full-size count the run extrapolates to
  std::string sym = "i";
  bool fast = false;
  bool grid = false;             ///< symmetry by grid symmetrisation (--sym_mode grid)
  bool cpu_fft = false;          ///< GPU case with the sample FFTs on the CPU loaders
  std::string kernel = "column"; ///< GPU insertion kernel
};

std::string label(const Case& c) {
  std::string s = std::to_string(c.box) + "^2 x " + std::to_string(c.images) + " " + c.sym;
  if (c.fast) s += " fast";
  if (c.grid) s += " grid";
  if (c.gpu && c.cpu_fft) s += " cpufft";
  if (c.gpu && c.kernel != "column") s += " " + c.kernel;
  return s;
}

/// Per traverse space, counted with the shared gather code on the CPU.
struct Work {
  double columns = 0, updates = 0, taps = 0;
  int counted = 0;
};

struct Result {
  Case c;
  bool ran = false;
  std::string note, backend;
  double wall_s = 0, accumulate_s = 0, finalise_s = 0;
  recon::PhaseTimes times;
  GpuRunStats gpu;
  Work work;
  long long spaces = 0;           ///< traverse spaces inserted in the run
  double kernel_only_ms = 0;      ///< per batch, GPU
  int batch_spaces = 0;
  double gupd_s = 0, gtap_s = 0;  ///< kernel-only (GPU) or insertion (CPU) rates
  double pct_bw = 0, pct_fp32 = 0;
};

constexpr double kBytesPerUpdate = 24.0; // atomic read-modify-write of G (8 B) + W (4 B)
constexpr double kFlopsPerTap = 11.0;    // distance, table index, weight, 2 complex + 1 weight accumulations

Options parse(int argc, char** argv) {
  Options o;
  bool images_set = false;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) throw_usage_error(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--suite") o.suite = value(i);
    else if (a == "--quick") o.scale = 0.05;
    else if (a == "--scale") o.scale = std::stod(value(i));
    else if (a == "--budget-s") o.budget_s = std::stod(value(i));
    else if (a == "--box") o.box = std::stoi(value(i));
    else if (a == "--images") { o.images = std::stoll(value(i)); images_set = true; }
    else if (a == "--sym") o.sym = value(i);
    else if (a == "--fast") o.fast = true;
    else if (a == "--cpu-fft") o.cpu_fft = true;
    else if (a == "--sym_mode") {
      const std::string v = value(i);
      if (v != "insert" && v != "grid") throw_usage_error("--sym_mode must be insert or grid");
      o.grid = v == "grid";
    }
    else if (a == "--device") o.device = value(i);
    else if (a == "--streams") o.streams = std::stoi(value(i));
    else if (a == "--buffer") o.buffer = std::stoi(value(i));
    else if (a == "--threads") o.threads = std::stoi(value(i));
    else if (a == "--kernel-reps") o.kernel_reps = std::stoi(value(i));
    else if (a == "--kernel") {
      o.kernel = value(i);
      if (o.kernel != "brick" && o.kernel != "column") throw_usage_error("--kernel must be brick or column");
    }
    else if (a == "--interp") {
      const std::string v = value(i);
      if (v == "lookup") o.interp = recon::Interpolation::Lookup;
      else if (v == "dynamic") o.interp = recon::Interpolation::Dynamic;
      else throw_usage_error("--interp must be lookup or dynamic");
    } else if (a == "--no-cpu") o.cpu = false;
    else if (a == "--no-gpu") o.gpu = false;
    else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else
      throw_usage_error("unknown option '" + a + "'\n" + kUsage);
  }
  if (o.suite != "full" && o.suite != "check") throw_usage_error("--suite must be full or check");
  if (o.scale <= 0) throw_usage_error("--scale must be > 0");
  if (o.streams < 1 || o.buffer < 1 || o.kernel_reps < 1) throw_usage_error("--streams, --buffer, --kernel-reps must be >= 1");
  if (o.box != 0 && o.box < 8) throw_usage_error("--box must be >= 8");
  if (images_set && o.images < 1) throw_usage_error("--images must be >= 1");
  return o;
}

/// The cases to run; a single case (--box) runs on the GPU when `single_on_gpu`.
std::vector<Case> suite_cases(const Options& o, bool single_on_gpu) {
  std::vector<Case> cases;
  auto add = [&](bool gpu, int box, long long images, long long full, const char* sym, bool fast = false,
                 const std::string& kernel = "", bool grid = false, bool cpu_fft = false) {
    Case c;
    c.gpu = gpu;
    c.box = box;
    c.full_images = full;
    c.images = std::max<long long>(1, std::llround(double(images) * o.scale));
    c.sym = sym;
    c.fast = fast;
    c.grid = grid;
    c.cpu_fft = cpu_fft || o.cpu_fft;
    c.kernel = kernel.empty() ? o.kernel : kernel;
    cases.push_back(c);
  };
  if (o.box > 0) {
    add(single_on_gpu, o.box, o.images, o.images, o.sym.c_str(), o.fast, "", o.grid);
    return cases;
  }
  if (o.suite == "full") {
    add(true, 64, 100000, 100000, "i");
    add(true, 128, 30000, 30000, "i", false, "column");
    add(true, 128, 30000, 30000, "i", false, "column", false, true); // sample FFTs on the CPU loaders
    add(true, 128, 30000, 30000, "i", false, "brick");
    add(true, 128, 30000, 30000, "i", true);
    add(true, 256, 10000, 10000, "i");
    add(true, 512, 10000, 10000, "i");
    add(true, 256, 50000, 50000, "c1");
    // --sym_mode grid: each image inserted once, the grid symmetrised (not Xmipp's algorithm).
    add(true, 64, 100000, 100000, "i", false, "", true);
    add(true, 128, 30000, 30000, "i", false, "", true);
    add(true, 256, 10000, 10000, "i", false, "", true);
    add(true, 512, 10000, 10000, "i", false, "", true);
    add(false, 64, 500, 100000, "i");
    add(false, 128, 100, 30000, "i");
    add(false, 128, 100, 30000, "i", true);
    add(false, 256, 20, 10000, "i");
    add(false, 256, 1000, 50000, "c1");
  } else {
    // check: fits the device check's time budget. Every GPU case of the full suite in full (the
    // exact symmetry split made them short), 128^2 I also with the brick kernel, with the
    // sample FFTs on the CPU, in fast mode and with --sym_mode grid; the CPU cases with few
    // images (images/s and the extrapolated full-size time are reported).
    add(true, 128, 30000, 30000, "i", false, "column");
    add(true, 128, 30000, 30000, "i", false, "column", false, true);
    add(true, 128, 30000, 30000, "i", false, "brick");
    add(true, 128, 30000, 30000, "i", true);
    add(true, 128, 30000, 30000, "i", false, "", true);
    add(true, 64, 100000, 100000, "i");
    add(true, 256, 10000, 10000, "i");
    add(true, 256, 50000, 50000, "c1");
    add(false, 64, 300, 100000, "i");
    add(false, 128, 100, 30000, "i");
    add(false, 128, 100, 30000, "i", true);
    add(false, 256, 20, 10000, "i");
    add(false, 256, 500, 50000, "c1");
    add(false, 128, 500, 30000, "i", false, "", true);
    add(true, 512, 10000, 10000, "i"); // last: its finish and finalise (1025^3 cube) take the longest
  }
  return cases;
}

/// A blob weight that counts its calls (the taps) and returns 1.
struct CountingWeight {
  long long* taps;
  float operator()(float) const {
    ++*taps;
    return 1.0f;
  }
};

/// Columns, voxel updates and taps per traverse space, counted with recon::gather_column on up
/// to `max_spaces` spaces of `batch` spread over it.
Work count_work(const recon::SampleBatch& batch, const recon::ReconstructionSettings& s, int max_spaces) {
  Work w;
  const recon::SampleView view = batch.view();
  const float radius = static_cast<float>(s.blob.radius);
  const int n = batch.space_count();
  const int step = std::max(1, n / std::max(1, max_spaces));
  for (int k = 0; k < n; k += step) {
    const recon::TraverseSpace& ts = batch.spaces()[k];
    const int a0 = ts.dir == recon::kPlaneYZ ? ts.min_y : ts.min_x;
    const int b0 = ts.dir == recon::kPlaneXY ? ts.min_y : ts.min_z;
    const int na = ts.columns_a(), nb = ts.columns_b();
    long long updates = 0, taps = 0;
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : updates, taps)
    for (int j = 0; j < nb; ++j) {
      long long u = 0, t = 0;
      const CountingWeight weight{&t};
      auto acc = [&u](int, int, int, float, float, float) { ++u; };
      for (int i = 0; i < na; ++i) {
        if (s.fast) recon::gather_column_nearest(ts, a0 + i, b0 + j, view, acc);
        else recon::gather_column(ts, a0 + i, b0 + j, view, radius, weight, acc);
      }
      updates += u;
      taps += s.fast ? u : t;
    }
    w.columns += double(na) * nb;
    w.updates += double(updates);
    w.taps += double(taps);
    ++w.counted;
  }
  if (w.counted > 0) {
    w.columns /= w.counted;
    w.updates /= w.counted;
    w.taps /= w.counted;
  }
  return w;
}

recon::ReconstructionSettings settings_for(const Options& o, const Case& c) {
  recon::ReconstructionSettings s;
  s.box = c.box;
  s.fast = c.fast;
  s.interp = o.interp;
  s.sym_mode = c.grid ? recon::SymMode::Grid : recon::SymMode::Insert;
  return s;
}

Result run_case(const Options& o, const Case& c, const std::vector<int>& gpus, const GpuFacts& facts) {
  Result r;
  r.c = c;
  const recon::ReconstructionSettings s = settings_for(o, c);
  const recon::GridLayout layout = recon::make_grid_layout(s);
  const geom::SymmetryGroup group = geom::parse_symmetry(c.sym);
  // What the insertion sees: the coset representatives of the grid subgroup, or the identity
  // only in grid mode (grid_symmetry.hpp).
  const geom::SymmetryGroup inserted = recon::plan_symmetry(group, s.sym_mode).inserted;
  const auto images = recon::synthetic_images(c.box, 8);
  const auto particles = recon::synthetic_particles(c.images, static_cast<std::uint32_t>(c.box) * 31u + 7u);
  const recon::ImageLoader load = recon::synthetic_loader(images);
  recon::AccumulateOptions opt;
  opt.buffer_size = o.buffer;
  opt.threads = o.threads;

  const auto t0 = Clock::now();
  {
    std::unique_ptr<recon::GridAccumulator> acc =
        c.gpu ? make_gpu_accumulator(s, layout, 1, gpus, o.streams, c.kernel, !c.cpu_fft)
              : recon::make_cpu_accumulator(s, layout, 1);
    r.backend = acc->describe();
    auto grids = recon::accumulate(s, layout, group, particles, load, *acc, opt, &r.times);
    r.accumulate_s = seconds_since(t0);
    if (c.gpu) r.gpu = gpu_run_stats(*acc);
    acc.reset(); // release the device cube before finalising
    const auto t1 = Clock::now();
    recon::FinaliseOptions fin; // GPU cases run the inverse 3-D FFT with cuFFT, as the program does
    if (c.gpu) {
      fin.backend = fft::Backend::Cuda;
      fin.device = gpus.front();
    }
    const Image<float> map = recon::finalise(grids[0], s, layout, fin);
    r.finalise_s = seconds_since(t1);
    r.times.finalise = r.finalise_s;
    volatile float sink = map.size() > 0 ? map[0] : 0.0f;
    (void)sink;
  }
  r.wall_s = seconds_since(t0);
  r.spaces = c.images * inserted.order();
  r.ran = true;

  // Work per traverse space, counted on the CPU with the shared gather code (one batch).
  const recon::SampleBatch batch =
      recon::prepared_batch(s, layout, inserted, images, particles, o.buffer, c.gpu ? HostMemory::Pinned : HostMemory::Pageable);
  r.work = count_work(batch, s, 48);
  r.batch_spaces = batch.space_count();
  const double upd_batch = r.work.updates * r.batch_spaces, tap_batch = r.work.taps * r.batch_spaces;
  if (c.gpu) {
    r.kernel_only_ms = gpu_kernel_ms(s, layout, batch, gpus.front(), o.kernel_reps, c.kernel);
    if (r.kernel_only_ms > 0) {
      r.gupd_s = upd_batch / (r.kernel_only_ms * 1e-3) / 1e9;
      r.gtap_s = tap_batch / (r.kernel_only_ms * 1e-3) / 1e9;
      const double bw = facts.measured_bandwidth_gbs > 0 ? facts.measured_bandwidth_gbs : facts.peak_bandwidth_gbs;
      if (bw > 0) r.pct_bw = 100.0 * r.gupd_s * kBytesPerUpdate / bw;
      if (facts.peak_fp32_gflops > 0) r.pct_fp32 = 100.0 * r.gtap_s * kFlopsPerTap / facts.peak_fp32_gflops;
    }
  } else if (r.times.insert > 0) {
    // CPU: one lane, so the insert phase is the insertion's wall time; the queued batches are
    // inserted at finish() too (docs/reconstruct_fourier.md#the-cpu-gather-kernel).
    const double t = r.times.insert + r.times.finish;
    r.gupd_s = r.work.updates * double(r.spaces) / t / 1e9;
    r.gtap_s = r.work.taps * double(r.spaces) / t / 1e9;
  }
  return r;
}

/// The part of finish() that depends on the image count: on the CPU the accumulator queues
/// batches and inserts the last ones at finish() (docs/reconstruct_fourier.md#the-cpu-gather-kernel),
/// so a CPU case counts its whole finish as streaming work (the fold in it is then scaled too).
double streaming_finish_s(const Result& r) { return r.c.gpu ? 0.0 : r.times.finish; }

/// The streaming rate: images over the accumulation without its finish (which does not depend
/// on the image count), the rate that extrapolates to other image counts.
double images_per_s(const Result& r) {
  const double t = r.accumulate_s - r.times.finish - r.times.symmetrise + streaming_finish_s(r);
  return t > 0 ? double(r.c.images) / t : 0.0;
}

/// Full-size wall time: the accumulation scaled to full_images, plus this run's finalise and
/// finish (they do not depend on the image count).
double full_estimate_s(const Result& r) {
  const double ips = images_per_s(r);
  if (ips <= 0) return 0;
  const double fixed = r.times.finish - streaming_finish_s(r) + r.times.symmetrise + r.finalise_s;
  const double acc_only =
      std::max(0.0, r.accumulate_s - r.times.finish - r.times.symmetrise + streaming_finish_s(r));
  return acc_only * double(r.c.full_images) / double(r.c.images) + fixed;
}

void print_result(const Result& r, int threads, int lanes, const GpuFacts& facts) {
  const Case& c = r.c;
  std::printf("## %s %s (%lld samples): %s\n", c.gpu ? "gpu" : "cpu", label(c).c_str(),
              static_cast<long long>(r.spaces), r.backend.c_str());
  std::printf("   wall %.2f s = accumulate %.2f s (incl. finish %.2f s, grid symmetrisation %.2f s) + finalise %.2f s;"
              " streaming %.1f images/s, %.0f samples/s\n",
              r.wall_s, r.accumulate_s, r.times.finish, r.times.symmetrise, r.finalise_s, images_per_s(r),
              images_per_s(r) * double(r.spaces) / double(std::max(1LL, r.c.images)));
  if (c.full_images != c.images)
    std::printf("   full size (%lld images): estimated %.1f s\n", c.full_images, full_estimate_s(r));
  std::printf("   loaders (summed over %d threads): load %.2f s, prepare %.2f s; insert() %.2f s summed over %d lane(s)\n",
              threads, r.times.load, r.times.prepare, r.times.insert, lanes);
  if (c.gpu && r.gpu.valid)
    std::printf("   gpu: %lld launches, kernel %.2f s (events, summed over lanes), insert() waiting %.2f s, upload %.2f GB;"
                " finish: device fold (+convolve) and download %.2f s, host add %.2f s\n",
                static_cast<long long>(r.gpu.launches), r.gpu.kernel_ms * 1e-3, r.gpu.wait_s, r.gpu.upload_gb,
                r.gpu.download_s, r.gpu.host_finish_s);
  std::printf("   work per sample (gather counted on %d spaces): %.0f columns, %.0f voxel updates, %.0f taps (%.1f taps/update)\n",
              r.work.counted, r.work.columns, r.work.updates, r.work.taps,
              r.work.updates > 0 ? r.work.taps / r.work.updates : 0.0);
  if (c.gpu) {
    std::printf("   kernel only (one batch, %d spaces): %.3f ms -> %.2f G voxel updates/s, %.2f G taps/s\n", r.batch_spaces,
                r.kernel_only_ms, r.gupd_s, r.gtap_s);
    const double bw = facts.measured_bandwidth_gbs > 0 ? facts.measured_bandwidth_gbs : facts.peak_bandwidth_gbs;
    std::printf("   floors: %.0f B/update at %.0f GB/s -> %.1f %% of bandwidth; %.0f flop/tap at %.0f GFLOP/s -> %.1f %% of FP32 peak\n",
                kBytesPerUpdate, bw, r.pct_bw, kFlopsPerTap, facts.peak_fp32_gflops, r.pct_fp32);
  } else {
    std::printf("   insertion: %.3f G voxel updates/s, %.3f G taps/s\n", r.gupd_s, r.gtap_s);
  }
  std::fflush(stdout);
}

int run(const Options& o) {
  const int threads = o.threads > 0 ? o.threads : num_threads();
  std::vector<int> gpus;
  bool want_gpu = o.gpu;
  if (!o.device.empty()) {
    const DeviceSelection sel = DeviceSelection::parse(o.device);
    if (sel.cpu) want_gpu = false;
    else gpus = sel.gpus;
  } else if (cuda_device_count() > 0) {
    gpus = {0};
  }
  if (gpus.empty()) want_gpu = false;
  GpuFacts facts;
  if (want_gpu) {
    require_devices(DeviceSelection::parse(o.device.empty() ? "0" : o.device));
    facts = gpu_facts(gpus.front());
    if (!facts.available) want_gpu = false;
  }
  const int lanes = static_cast<int>(gpus.size()) * o.streams;

  std::printf("# frost_bench_reconstruction: suite %s, scale %g, pad 2, blob 1.9/0/15, %s weights, buffer %d, %d threads\n",
              o.box > 0 ? "single" : o.suite.c_str(), o.scale,
              o.interp == recon::Interpolation::Lookup ? "table" : "dynamic", o.buffer, threads);
  if (want_gpu)
    std::printf("# gpu: %s (sm_%d%d, %d SMs, %.1f GiB, %s), %zu device(s) x %d streams; memory %.0f GB/s peak, %.0f GB/s "
                "measured (D2D copy); FP32 peak %.0f GFLOP/s\n",
                facts.name.c_str(), facts.cc_major, facts.cc_minor, facts.sm_count, facts.total_gib, facts.versions.c_str(),
                gpus.size(), o.streams, facts.peak_bandwidth_gbs, facts.measured_bandwidth_gbs, facts.peak_fp32_gflops);
  else
    std::printf("# gpu: none (%s); GPU cases skipped\n", cuda_compiled() ? "no device selected or visible" : "built without CUDA");
  std::printf("# floors: a voxel update is 3 float atomics with the column kernel (%.0f B read+write if each went to DRAM;"
              " the brick kernel sums in shared memory and adds once per voxel and batch); a tap is ~%.0f flop\n",
              kBytesPerUpdate, kFlopsPerTap);
  std::printf("# load and prepare are summed over loader threads; kernel-only rates time one prepared batch\n");
  std::fflush(stdout);

  const auto start = Clock::now();
  std::vector<Result> results;
  for (const Case& c : suite_cases(o, want_gpu)) {
    if (c.gpu && !want_gpu) continue;
    if (!c.gpu && !o.cpu) continue;
    if (o.budget_s > 0 && seconds_since(start) > o.budget_s) {
      Result r;
      r.c = c;
      r.note = "skipped: budget";
      std::printf("## %s %s: skipped (budget of %.0f s used)\n", c.gpu ? "gpu" : "cpu", label(c).c_str(), o.budget_s);
      results.push_back(r);
      continue;
    }
    Result r = run_case(o, c, gpus, facts);
    print_result(r, threads, c.gpu ? lanes : 1, facts);
    results.push_back(r);
  }

  std::printf("# summary: images/s = images / (accumulate - finish) (CPU: images / accumulate, as the queued"
              " insertion runs in finish); est_s = wall time at the full-size image count;"
              " Gupd/s, Gtap/s = kernel-only on GPU, insertion (insert + finish) on CPU; ins_s = kernel (GPU, summed"
              " over lanes) or insert (CPU, the queueing and full-queue passes) time\n");
  std::printf("%-4s %-20s %7s %8s %9s %8s %8s %8s %7s %6s %6s\n", "dev", "case", "images", "wall_s", "images/s", "est_s",
              "Gupd/s", "Gtap/s", "ins_s", "%bw", "%fp32");
  for (const Result& r : results) {
    std::string name = std::to_string(r.c.box) + "^2 " + r.c.sym + (r.c.fast ? " fast" : "") + (r.c.grid ? " grid" : "") +
                       (r.c.gpu && r.c.cpu_fft ? " cpufft" : "") +
                       (r.c.gpu && r.c.kernel != "column" ? " " + r.c.kernel : "");
    if (!r.ran) {
      std::printf("%-4s %-20s %7lld %s\n", r.c.gpu ? "gpu" : "cpu", name.c_str(), r.c.images, r.note.c_str());
      continue;
    }
    const double ins = r.c.gpu ? r.gpu.kernel_ms * 1e-3 : r.times.insert;
    std::printf("%-4s %-20s %7lld %8.2f %9.1f %8.1f %8.3f %8.2f %7.2f %6.1f %6.1f\n", r.c.gpu ? "gpu" : "cpu", name.c_str(),
                r.c.images, r.wall_s, images_per_s(r), full_estimate_s(r), r.gupd_s, r.gtap_s, ins,
                r.c.gpu ? r.pct_bw : 0.0, r.c.gpu ? r.pct_fp32 : 0.0);
  }
  // Brick against column kernel on the same case (kernel-only time and streaming rate).
  for (const Result& b : results) {
    if (!b.ran || !b.c.gpu || b.c.kernel != "brick") continue;
    for (const Result& k : results) {
      if (!k.ran || !k.c.gpu || k.c.kernel != "column" || k.c.box != b.c.box || k.c.sym != b.c.sym ||
          k.c.fast != b.c.fast || k.c.grid != b.c.grid || k.c.cpu_fft != b.c.cpu_fft || k.c.images != b.c.images)
        continue;
      std::printf("# %d^2 %s%s: brick kernel %.2fx the column kernel's speed (kernel only: %.3f vs %.3f ms per batch);"
                  " streaming %.2fx (%.0f vs %.0f images/s)\n",
                  b.c.box, b.c.sym.c_str(), b.c.fast ? " fast" : "",
                  b.kernel_only_ms > 0 ? k.kernel_only_ms / b.kernel_only_ms : 0.0, b.kernel_only_ms, k.kernel_only_ms,
                  images_per_s(k) > 0 ? images_per_s(b) / images_per_s(k) : 0.0, images_per_s(b), images_per_s(k));
    }
  }
  std::printf("# total %.1f s\n", seconds_since(start));
  return 0;
}

} // namespace
} // namespace frost::bench

int main(int argc, char** argv) {
  return frost::bench::bench_main("frost_bench_reconstruction",
                                  [&] { return frost::bench::run(frost::bench::parse(argc, argv)); });
}
