// frost_bench_cpu_vs_relion (issue 30; docs/performance.md#cpu-against-relion): frost's CPU
// programs and RELION's CPU programs on the same simulated inputs and the same cores, timed side
// by side in one run (alternating, best of --reps), with their accuracy against the simulation's
// truth: the map's NCC against the phantom in a sphere of 0.45 N and its FSC; the movie's global
// and local shift errors. RELION is optional: without it (FROST_RELION_BIN, else PATH) only frost
// runs, and the report says so.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "../common/bench_main.hpp"
#include "frost/core/error.hpp"
#include "map_accuracy.hpp"
#include "shift_accuracy.hpp"
#include "timed_command.hpp"

namespace frost::bench {
namespace {

const char* kUsage =
    "usage: frost_bench_cpu_vs_relion [--work DIR] [--threads N] [--reps R] [--only recon|movie]\n"
    "                                 [--particles K] [--box B] [--movie-size S] [--frames F]\n"
    "                                 [--frost-recon-args A] [--frost-movie-args A] [--frost-device D]\n"
    "Simulates (once; kept in DIR) K particles of B^2 (c1, SNR 1, RELION 3.1 STAR; default 4000 of\n"
    "96^2) and an S^2 x F movie with drift and doming (T3; default 2048^2 x 30), then runs, alternating,\n"
    "R times each (default 3, best wall time reported):\n"
    "  frost_reconstruct_fourier --device cpu --thr N   and  relion_reconstruct (one process)\n"
    "  frost_movie_align --device cpu --thr N --patches 5 5  and  relion_run_motioncorr --use_own --j N\n"
    "                                                         --patch_x 5 --patch_y 5\n"
    "N defaults to all cores. RELION comes from FROST_RELION_BIN or PATH; it is skipped when absent.\n"
    "--frost-*-args appends options to frost's command (e.g. --frost-recon-args --fast).\n"
    "--frost-device D runs frost on --device D instead of cpu (its accuracy and time on a GPU).\n"
    "Programs' output goes to DIR/bench.log.\n";

struct Options {
  std::string work = "cpu_vs_relion_work";
  int threads = 0, reps = 3, particles = 4000, box = 96, movie_size = 2048, frames = 30;
  bool recon = true, movie = true;
  std::string recon_args, movie_args; ///< appended to frost's commands
  std::string device = "cpu";         ///< frost's --device
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw_usage_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (a == "--work") o.work = next();
    else if (a == "--threads") o.threads = std::stoi(next());
    else if (a == "--reps") o.reps = std::max(1, std::stoi(next()));
    else if (a == "--particles") o.particles = std::stoi(next());
    else if (a == "--box") o.box = std::stoi(next());
    else if (a == "--movie-size") o.movie_size = std::stoi(next());
    else if (a == "--frames") o.frames = std::stoi(next());
    else if (a == "--frost-recon-args") o.recon_args = next();
    else if (a == "--frost-movie-args") o.movie_args = next();
    else if (a == "--frost-device") o.device = next();
    else if (a == "--only") {
      const std::string w = next();
      o.recon = w == "recon";
      o.movie = w == "movie";
      if (!o.recon && !o.movie) throw_usage_error("--only recon|movie");
    } else throw_usage_error("unknown option " + a + "\n" + kUsage);
  }
  if (o.threads <= 0) o.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return o;
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

/// Best (lowest wall) of the runs, with its CPU time.
struct Best {
  CommandTime t{1e300, 0, 0};
  void add(const CommandTime& c) {
    if (c.status != 0) throw Error(ExitCode::Runtime, "a timed command failed (see bench.log)");
    if (c.wall_s < t.wall_s) t = c;
  }
};

void simulate_once(const Options& o, const std::string& log) {
  namespace fs = std::filesystem;
  if (o.recon && !fs::exists(o.work + "/parts.star")) {
    std::printf("simulating %d particles of %d^2 ...\n", o.particles, o.box);
    const CommandTime t = run_timed("cd " + quote(o.work) + " && " + FROST_SIMULATE_EXE +
                                        " --mode projections --oroot parts --box " + std::to_string(o.box) +
                                        " --count " + std::to_string(o.particles) + " --snr 1",
                                    log);
    if (t.status != 0) throw Error(ExitCode::Runtime, "frost_simulate (particles) failed (see bench.log)");
  }
  if (o.movie && !fs::exists(o.work + "/mov_truth.star")) {
    std::printf("simulating a %d^2 x %d movie (T3) ...\n", o.movie_size, o.frames);
    const CommandTime t = run_timed("cd " + quote(o.work) + " && " + FROST_SIMULATE_EXE +
                                        " --mode movie --oroot mov --trajectory T3 --size " +
                                        std::to_string(o.movie_size) + " " + std::to_string(o.movie_size) +
                                        " --frames " + std::to_string(o.frames),
                                    log);
    if (t.status != 0) throw Error(ExitCode::Runtime, "frost_simulate (movie) failed (see bench.log)");
    std::FILE* f = std::fopen((o.work + "/movies.star").c_str(), "w");
    FROST_EXPECTS(f != nullptr, "cannot write movies.star in " + o.work);
    std::fputs("data_optics\nloop_\n_rlnOpticsGroupName\n_rlnOpticsGroup\n_rlnMicrographOriginalPixelSize\n"
               "_rlnVoltage\n_rlnSphericalAberration\n_rlnAmplitudeContrast\nopticsGroup1 1 1.0 300 2.7 0.1\n\n"
               "data_movies\nloop_\n_rlnMicrographMovieName\n_rlnOpticsGroup\nmov.mrcs 1\n",
               f);
    std::fclose(f);
  }
}

void report_row(const char* what, const Best& b, const std::string& accuracy) {
  std::printf("| %s | %.2f | %.2f | %s |\n", what, b.t.wall_s, b.t.cpu_s, accuracy.c_str());
}

std::string map_text(const MapAccuracy& m) {
  char s[200];
  std::snprintf(s, sizeof s, "NCC %.4f, FSC 0.5 %.2f A, 0.143 %.2f A, mean FSC %.4f (masked %.4f)", m.ncc, m.fsc_05,
                m.fsc_0143, m.mean_fsc, m.mean_fsc_masked);
  return s;
}

std::string shift_text(const ShiftError& e) {
  char s[120];
  std::snprintf(s, sizeof s, "global rms %.4f px (%.4f without the mean offset), local rms %.4f px", e.global_rms,
                e.global_rms_centred, e.local_rms);
  return s;
}

void run_recon(const Options& o, const std::string& relion_dir, const std::string& log) {
  const std::string cd = "cd " + quote(o.work) + " && ";
  const std::string frost = cd + FROST_RECONSTRUCT_EXE + " -i parts.star -o frost_map.mrc --device " + o.device + " --thr " +
                            std::to_string(o.threads) + (o.recon_args.empty() ? "" : " " + o.recon_args);
  const std::string relion = cd + quote(relion_dir + "/relion_reconstruct") + " --i parts.star --o relion_map.mrc";
  std::printf("\nreconstruction: %d particles of %d^2, c1, SNR 1, %d threads\n  frost:  %s\n", o.particles, o.box,
              o.threads, frost.c_str());
  if (!relion_dir.empty()) std::printf("  RELION: %s\n", relion.c_str());
  Best f, r;
  for (int i = 0; i < o.reps; ++i) {
    f.add(run_timed(frost, log));
    if (!relion_dir.empty()) r.add(run_timed(relion, log));
  }
  const std::string phantom = o.work + "/parts_phantom.mrc";
  std::printf("\n| run | wall [s] | CPU [s] | accuracy against the phantom |\n|---|---|---|---|\n");
  report_row(("frost_reconstruct_fourier --device " + o.device + (o.recon_args.empty() ? "" : " " + o.recon_args)).c_str(), f, map_text(map_accuracy(o.work + "/frost_map.mrc", phantom, 1.0)));
  if (relion_dir.empty()) {
    std::printf("RELION not found (FROST_RELION_BIN or PATH): relion_reconstruct skipped\n");
    return;
  }
  report_row("relion_reconstruct (one process)", r, map_text(map_accuracy(o.work + "/relion_map.mrc", phantom, 1.0)));
  const double best_case = r.t.wall_s / o.threads;
  std::printf("RELION's best case on %d cores (its time / %d): %.2f s; frost / best case = %.2f (target <= 1)\n",
              o.threads, o.threads, best_case, f.t.wall_s / best_case);
}

void run_movie(const Options& o, const std::string& relion_dir, const std::string& log) {
  const std::string cd = "cd " + quote(o.work) + " && ";
  const std::string thr = std::to_string(o.threads);
  const std::string frost = cd + FROST_MOVIE_ALIGN_EXE +
                            " -i mov.mrcs --oavg frost_mic.mrc -o frost_align.star --device " + o.device + " --patches 5 5 --thr " + thr +
                            (o.movie_args.empty() ? "" : " " + o.movie_args);
  const std::string relion = cd + "rm -rf relion_mc && " + quote(relion_dir + "/relion_run_motioncorr") +
                             " --i movies.star --o relion_mc/ --use_own --j " + thr +
                             " --patch_x 5 --patch_y 5 --dose_per_frame 1";
  std::printf("\nmovie: %d^2 x %d, T3 (drift and doming), 5 x 5 patches, %d threads\n  frost:  %s\n", o.movie_size,
              o.frames, o.threads, frost.c_str());
  if (!relion_dir.empty()) std::printf("  RELION: %s\n", relion.c_str());
  Best f, r;
  for (int i = 0; i < o.reps; ++i) {
    f.add(run_timed(frost, log));
    // The output folder is removed inside the timed command: a few milliseconds.
    if (!relion_dir.empty()) r.add(run_timed(relion, log));
  }
  const MotionTruth truth = read_motion_truth(o.work + "/mov_truth.star");
  write_truth_coordinates(truth, o.work + "/truth_coords.star");
  const CommandTime tr = run_timed(cd + FROST_MOVIE_ALIGN_EXE +
                                       " trajectories --alignment frost_align.star --coords truth_coords.star"
                                       " --out frost_trajectories.star --relion",
                                   log);
  if (tr.status != 0) throw Error(ExitCode::Runtime, "frost_movie_align trajectories failed (see bench.log)");
  std::printf("\n| run | wall [s] | CPU [s] | shift error against the truth |\n|---|---|---|---|\n");
  report_row(("frost_movie_align --device " + o.device + (o.movie_args.empty() ? "" : " " + o.movie_args)).c_str(), f,
             shift_text(frost_shift_error(o.work + "/frost_align.star", o.work + "/frost_trajectories.star", truth)));
  if (relion_dir.empty()) {
    std::printf("RELION not found (FROST_RELION_BIN or PATH): relion_run_motioncorr skipped\n");
    return;
  }
  report_row("relion_run_motioncorr --use_own", r, shift_text(relion_shift_error(o.work + "/relion_mc/mov.star", truth)));
  std::printf("frost / RELION wall = %.2f (target <= 1)\n", f.t.wall_s / r.t.wall_s);
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  std::filesystem::create_directories(o.work);
  const std::string log = std::filesystem::absolute(o.work + "/bench.log").string();
  std::printf("frost_bench_cpu_vs_relion: work folder %s, %d threads, best of %d\n", o.work.c_str(), o.threads, o.reps);
  std::printf("RELION is not a dependency of frost; it runs only when found.\n");
  simulate_once(o, log);
  if (o.recon) {
    const std::string dir = find_relion_program("relion_reconstruct");
    run_recon(o, dir, log);
  }
  if (o.movie) {
    const std::string dir = find_relion_program("relion_run_motioncorr");
    run_movie(o, dir, log);
  }
  return 0;
}

} // namespace
} // namespace frost::bench

int main(int argc, char** argv) {
  return frost::bench::bench_main("frost_bench_cpu_vs_relion", [&] { return frost::bench::run(argc, argv); });
}
