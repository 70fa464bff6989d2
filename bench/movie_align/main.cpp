// frost_bench_movie_align: end-to-end movie alignment at the five sizes of docs/movie_align.md#benchmarks
// (Falcon 4096²x40, K2 3838x3710x40, K2 super 7676x7420x40, K3 5760x4092x30, K3 super
// 11520x8184x20) on synthetic counting movies. Each movie is written once (MRC mode 0); each case
// runs the frost_movie_align program (global + local with the default patches, bspline3,
// dose-weighted micrograph written), so the time is file -> micrograph on disk, process start and
// CUDA context included. Per-stage times come from the program's alignment STAR, peak device
// memory from its log; the GPU floor (raw float32 bytes / measured pinned H2D bandwidth + one
// full-size R2C per frame) is measured in the same run. Target (issue): K3 and Falcon <= 0.5 s.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../common/bench_main.hpp"
#include "bench_movie.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/metadata/metadata_file.hpp"

namespace frost::bench {
namespace {

const std::vector<MovieSize> kSizes = {{"falcon", 4096, 4096, 40},
                                       {"k2", 3838, 3710, 40},
                                       {"k2super", 7676, 7420, 40},
                                       {"k3", 5760, 4092, 30},
                                       {"k3super", 11520, 8184, 20}};

void usage() {
  std::printf(
      "usage: frost_bench_movie_align [--suite check|full] [--sizes a,b,...] [--device cpu|gpu|both]\n"
      "                               [--gpu ID] [--repeats R] [--batch B] [--budget-s S] [--workdir DIR] [--quick]\n"
      "  --suite check  (default) GPU only: falcon and k3 (the 0.5 s targets), then the other sizes\n"
      "                 while the budget lasts\n"
      "  --suite full   all five sizes on the GPU and the CPU\n"
      "  --sizes        any of falcon,k2,k2super,k3,k3super (overrides the suite's list)\n"
      "  --repeats R    runs per case (default 2: the first includes cuFFT planning and caches;\n"
      "                 the table reports the best and the first)\n"
      "  --batch B      also run one process over a list of B copies of the movie (default 4; 0 = no):\n"
      "                 per_movie = (batch wall - best single wall) / (B - 1), the cost of one more movie\n"
      "                 in a batch (context, process start and exit paid once, as in -i movies.txt)\n"
      "  --budget-s S   start no new case after S seconds (0 = none)\n"
      "  --quick        every size divided by 4 per axis (a smoke test of the harness)\n"
      "  --keep-movies  leave the synthetic movies in the workdir (for profiling)\n");
}

struct Options {
  std::string suite = "check";
  std::vector<std::string> sizes;
  std::string device;
  int gpu = 0;
  int repeats = 2;
  int batch = 4;
  double budget_s = 0;
  std::string workdir = "/tmp/frost-bench-movie";
  bool quick = false;
  bool keep_movies = false;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw_usage_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--suite") o.suite = value();
    else if (a == "--sizes") o.sizes = split(value());
    else if (a == "--device") o.device = value();
    else if (a == "--gpu") o.gpu = std::stoi(value());
    else if (a == "--repeats") o.repeats = std::max(1, std::stoi(value()));
    else if (a == "--batch") o.batch = std::max(0, std::stoi(value()));
    else if (a == "--budget-s") o.budget_s = std::stod(value());
    else if (a == "--workdir") o.workdir = value();
    else if (a == "--quick") o.quick = true;
    else if (a == "--keep-movies") o.keep_movies = true;
    else if (a == "--help" || a == "-h") {
      usage();
      std::exit(0);
    } else throw_usage_error("unknown option " + a);
  }
  if (o.suite != "check" && o.suite != "full") throw_usage_error("--suite must be check or full");
  if (o.device.empty()) o.device = o.suite == "full" ? "both" : "gpu";
  if (o.device != "cpu" && o.device != "gpu" && o.device != "both") throw_usage_error("--device must be cpu, gpu or both");
  if (o.sizes.empty()) o.sizes = {"falcon", "k3", "k2", "k3super", "k2super"};
  return o;
}

// The device's own stage times from its log line ("device: ... upload U ms (staging ...),
// spectra S ms, correlate C ms, patches P ms, render R ms (...)"): their sum is the
// GPU stages' time of the movie (the "GPU stages within 3x of the floor"); -1 when absent.
double gpu_stages_ms(const std::string& line) {
  double sum = 0;
  for (const char* stage : {"upload ", "spectra ", "correlate ", "patches ", "render "}) {
    const auto p = line.find(stage);
    if (p == std::string::npos) return -1;
    sum += std::atof(line.c_str() + p + std::strlen(stage));
  }
  return sum;
}

struct Run {
  bool ok = false;
  double wall_s = 0;                    ///< process wall time (file -> micrograph on disk)
  std::map<std::string, double> stages; ///< frostTime* of the alignment STAR [s]
  std::string peak_memory;              ///< "1234 MiB" from the program's device log line
  double gpu_ms = -1;                   ///< the device's stage times summed (gpu_stages_ms)
  std::string note;
};

// One frost_movie_align process; `outputs` is out_root for one movie or a {movie} pattern.
std::pair<int, double> run_program(const std::string& input, const std::string& outputs, const std::string& log,
                                   bool gpu, int device) {
  std::ostringstream cmd;
  cmd << FROST_MOVIE_ALIGN_EXE << " -i " << input << " --sampling 1.0 --oavg '" << outputs << ".mrc' -o '" << outputs
      << ".star' --dose-weight --dose-per-frame 1.0 --overwrite --device "
      << (gpu ? std::to_string(device) : std::string("cpu")) << " > " << log << " 2>&1";
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = std::system(cmd.str().c_str());
  return {rc, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
}

Run run_case(const std::string& movie, const std::string& out_root, bool gpu, int device) {
  const std::string log = out_root + ".log";
  const auto [rc, wall_s] = run_program(movie, out_root, log, gpu, device);
  Run r;
  r.wall_s = wall_s;
  if (rc != 0) {
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line)) last = line;
    r.note = "failed (status " + std::to_string(rc) + "): " + last;
    return r;
  }
  r.ok = true;
  const meta::MetadataFile star = meta::MetadataFile::read(out_root + ".star");
  for (const char* stage : {"Load", "Global", "Local", "Render", "WriteImages", "Total"}) {
    try {
      r.stages[stage] = star.block("general").get_double(std::string("frostTime") + stage);
    } catch (const Error&) {
      r.stages[stage] = -1;
    }
  }
  std::filesystem::remove(out_root + ".mrc"); // micrographs of K3 super are 380 MB: keep the disk free
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    const auto p = line.find("peak memory ");
    if (p != std::string::npos) r.peak_memory = line.substr(p + 12);
    if (line.find("device: ") != std::string::npos) {
      std::printf("   %s\n", line.c_str());
      r.gpu_ms = gpu_stages_ms(line);
    }
  }
  return r;
}

// One process over a list of `copies` links to the movie: the wall time, or a negative value
// with the reason in `note`.
double run_batch_case(const std::string& movie, const std::string& dir, int copies, bool gpu, int device,
                      std::string& note, double& later_gpu_ms) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    std::ofstream list(dir + "/movies.txt");
    for (int i = 0; i < copies; ++i) {
      const std::string link = dir + "/m" + std::to_string(i) + ".mrc";
      std::filesystem::create_symlink(std::filesystem::absolute(movie), link);
      list << link << "\n";
    }
  }
  const auto [rc, wall_s] = run_program(dir + "/movies.txt", dir + "/{movie}", dir + "/batch.log", gpu, device);
  if (rc != 0) note = "batch failed (status " + std::to_string(rc) + ")";
  std::ifstream in(dir + "/batch.log");
  std::vector<double> later; // GPU stages of the movies after the first
  int seen = 0;
  for (std::string line; std::getline(in, line);)
    if (line.find("device: ") != std::string::npos) {
      std::printf("   batch %s\n", line.c_str());
      if (seen++ > 0 && gpu_stages_ms(line) > 0) later.push_back(gpu_stages_ms(line));
    }
  if (!later.empty()) {
    std::sort(later.begin(), later.end());
    later_gpu_ms = later[later.size() / 2];
  }
  for (int i = 0; i < copies; ++i) { // the in-process total of each movie
    try {
      const meta::MetadataFile star = meta::MetadataFile::read(dir + "/m" + std::to_string(i) + ".star");
      std::printf("   batch movie %d: total %.3f s\n", i, star.block("general").get_double("frostTimeTotal"));
    } catch (const Error&) {
    }
  }
  std::filesystem::remove_all(dir);
  return rc == 0 ? wall_s : -1;
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  std::filesystem::create_directories(o.workdir);
  const bool gpu_available = cuda_compiled() && cuda_device_count() > o.gpu;
  std::printf("# frost_bench_movie_align: suite %s, device %s, %d repeats%s\n", o.suite.c_str(), o.device.c_str(),
              o.repeats, o.quick ? ", quick (sizes / 4)" : "");
  std::printf("# gpu: %s\n", gpu_available ? cuda_device_description(o.gpu).c_str()
                                           : (cuda_compiled() ? "none visible; GPU cases skipped" : "built without CUDA"));
  std::printf("# each case: frost_movie_align -i movie.mrc (mode 0) --sampling 1 --oavg --dose-weight, global + local\n"
              "# with default patches (500 A); wall = process time, file -> micrograph written\n");

  struct Row {
    std::string size, dev;
    Run best, first;
    Floors floors;
    double batch_wall = -1; ///< one process over o.batch copies
    double per_movie = -1;  ///< (batch_wall - best wall) / (batch - 1)
    double batch_gpu_ms = -1; ///< median GPU stages of the batch's movies after the first
  };
  std::vector<Row> rows;
  for (const std::string& name : o.sizes) {
    auto it = std::find_if(kSizes.begin(), kSizes.end(), [&](const MovieSize& s) { return s.name == name; });
    if (it == kSizes.end()) throw_usage_error("unknown size '" + name + "' (falcon,k2,k2super,k3,k3super)");
    MovieSize size = *it;
    if (o.quick) {
      size.x = (size.x / 4) & ~index_t{1};
      size.y = (size.y / 4) & ~index_t{1};
    }
    if (o.budget_s > 0 && elapsed() > o.budget_s) {
      std::printf("## %s: skipped (budget of %.0f s used)\n", name.c_str(), o.budget_s);
      continue;
    }
    const std::string movie = o.workdir + "/" + name + ".mrc";
    const double gen_s = write_synthetic_movie(movie, size, 1.0);
    std::printf("## %s %lldx%lldx%d: movie written in %.1f s\n", name.c_str(), static_cast<long long>(size.x),
                static_cast<long long>(size.y), size.frames, gen_s);
    for (const bool gpu : {true, false}) {
      if (gpu && (o.device == "cpu" || !gpu_available)) continue;
      if (!gpu && o.device == "gpu") continue;
      Row row{name, gpu ? "gpu" : "cpu", {}, {}, {}};
      if (gpu) row.floors = measure_floors(size, o.gpu);
      for (int rep = 0; rep < o.repeats; ++rep) {
        if (rep > 0 && o.budget_s > 0 && elapsed() > o.budget_s) break;
        const Run r = run_case(movie, o.workdir + "/" + name + "_" + row.dev, gpu, o.gpu);
        std::printf("   %s run %d: %s wall %.3f s", row.dev.c_str(), rep + 1, r.ok ? "ok" : r.note.c_str(), r.wall_s);
        if (r.ok)
          std::printf(" (load %.3f, global %.3f, local %.3f, render %.3f, write %.3f, total %.3f s)",
                      r.stages.at("Load"), r.stages.at("Global"), r.stages.at("Local"), r.stages.at("Render"),
                      r.stages.at("WriteImages"), r.stages.at("Total"));
        std::printf("\n");
        std::fflush(stdout);
        if (rep == 0) row.first = r;
        if (r.ok && (!row.best.ok || r.wall_s < row.best.wall_s)) row.best = r;
        if (!r.ok) break;
      }
      if (o.batch >= 2 && row.best.ok && !(o.budget_s > 0 && elapsed() > o.budget_s)) {
        std::string note;
        row.batch_wall = run_batch_case(movie, o.workdir + "/batch_" + row.dev, o.batch, gpu, o.gpu, note, row.batch_gpu_ms);
        if (row.batch_wall > 0) {
          row.per_movie = (row.batch_wall - row.best.wall_s) / (o.batch - 1);
          std::printf("   %s batch of %d: wall %.3f s -> %.3f s per further movie\n", row.dev.c_str(), o.batch,
                      row.batch_wall, row.per_movie);
        } else {
          std::printf("   %s batch of %d: %s\n", row.dev.c_str(), o.batch, note.c_str());
        }
      }
      if (gpu && !row.floors.device.empty())
        std::printf("   floor: H2D %.1f GB/s -> upload %.1f ms, one R2C %.2f ms x %d frames -> floor %.1f ms; with the "
                    "file's bytes (mode 0) %.1f ms (%s)\n",
                    row.floors.h2d_gbs, row.floors.upload_ms, row.floors.fft_ms, size.frames, row.floors.floor_ms,
                    row.floors.file_floor_ms, row.floors.device.c_str());
      rows.push_back(row);
    }
    if (!o.keep_movies) std::filesystem::remove(movie);
  }

  const std::string per_movie_line =
      o.batch >= 2 ? "# per_movie = (wall of one process over " + std::to_string(o.batch) + " copies - wall_s) / " +
                         std::to_string(o.batch - 1) + ": one more movie of a batch (-i list);\n"
                   : std::string("# per_movie: no batch run (--batch 0)\n");
  std::printf("# summary: best of the runs (first run in brackets); stages from the STAR [s]; floor = raw bytes / H2D + N x R2C;\n"
              "# outside = wall - the program's own total (process start and exit, device start before the movie, STAR);\n"
              "%s"
              "# gpu_ms = the device's stages (upload, spectra, correlate, patches, render) of a batch movie after the\n"
              "# first (median; else of the best run); gpu_x = gpu_ms / floor_ms (target <= 3), gpu_xf = gpu_ms / the floor\n"
              "# with the file's bytes (mode 0, a quarter of the float bytes); wall_x = wall_s / floor_ms\n",
              per_movie_line.c_str());
  std::printf("%-4s %-8s %9s %9s %9s %7s %7s %7s %7s %7s %7s %9s %8s %6s %6s %7s %8s\n", "dev", "size", "wall_s",
              "first_s", "per_movie", "load", "global", "local", "render", "write", "outside", "floor_ms", "gpu_ms",
              "gpu_x", "gpu_xf", "wall_x", "peak_mem");
  for (const Row& r : rows) {
    if (!r.best.ok) {
      std::printf("%-4s %-8s %s\n", r.dev.c_str(), r.size.c_str(), r.first.note.c_str());
      continue;
    }
    const auto& s = r.best.stages;
    const double outside = s.at("Total") >= 0 ? r.best.wall_s - s.at("Total") : -1;
    char per_movie[16] = "-";
    if (r.per_movie > 0) std::snprintf(per_movie, sizeof per_movie, "%.3f", r.per_movie);
    const double gpu_ms = r.batch_gpu_ms > 0 ? r.batch_gpu_ms : r.best.gpu_ms;
    char gpu[16] = "-", gpu_x[16] = "-", gpu_xf[16] = "-";
    if (gpu_ms > 0) std::snprintf(gpu, sizeof gpu, "%.1f", gpu_ms);
    if (gpu_ms > 0 && r.floors.floor_ms > 0) {
      std::snprintf(gpu_x, sizeof gpu_x, "%.2f", gpu_ms / r.floors.floor_ms);
      std::snprintf(gpu_xf, sizeof gpu_xf, "%.2f", gpu_ms / r.floors.file_floor_ms);
    }
    std::printf("%-4s %-8s %9.3f %9.3f %9s %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %9.1f %8s %6s %6s %7.1f %8s\n",
                r.dev.c_str(),
                r.size.c_str(), r.best.wall_s, r.first.wall_s, per_movie, s.at("Load"), s.at("Global"), s.at("Local"),
                s.at("Render"), s.at("WriteImages"), outside, r.floors.floor_ms, gpu, gpu_x, gpu_xf,
                r.floors.floor_ms > 0 ? r.best.wall_s * 1e3 / r.floors.floor_ms : 0.0,
                r.best.peak_memory.empty() ? "-" : r.best.peak_memory.c_str());
  }
  std::printf("# total %.1f s\n", elapsed());
  return 0;
}

} // namespace
} // namespace frost::bench

int main(int argc, char** argv) {
  return frost::bench::bench_main("frost_bench_movie_align", [&] { return frost::bench::run(argc, argv); });
}
