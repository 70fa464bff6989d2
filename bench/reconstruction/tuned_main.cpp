// frost_bench_tuned_reconstruction: end-to-end effect of kernel tuning on a reconstruction
// (G6, G7 in docs/tune.md#gpu-validation; issue target "auto within 10% of full on a 10k-image run,
// tuning time included"). One synthetic problem (no disk I/O), the whole accumulation (cube
// allocation, cache lookup, loaders, insertion, tuning, finish) timed with each policy:
//   off      the default launch;
//   oracle   --tune cached on the cache an exhaustive `frost_tune run` filled (--oracle-cache):
//            the best configuration known from the start;
//   auto --tune auto on a cold cache (tunes only if the rule of
//   docs/tune.md#when-dynamic-tuning-pays predicts it pays); dynamic --tune dynamic on a cold cache
//   (always tunes; `--tune full` is read as dynamic);
// `--reps` rounds, policies interleaved, cold caches fresh every round; medians reported. The
// half grids of every policy are compared with `off` (relative L2 of G and W).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../common/bench_main.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/cuda/insert_tuning.hpp"
#include "frost/cuda/reconstruction.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/reconstruction/synthetic_problem.hpp"
#include "frost/tuning/policy.hpp"

namespace {

using namespace frost;
using Clock = std::chrono::steady_clock;

const char* kUsage =
    "usage: frost_bench_tuned_reconstruction [--box N] [--sym S] [--images K] [--device ID] [--streams S]\n"
    "                                        [--buffer B] [--reps R] [--oracle-cache DIR] [--work DIR]\n"
    "                                        [--policies off,oracle,auto,dynamic]\n"
    "  defaults: --box 128 --sym i --images 10000 --device 0 --streams 4 --buffer 25 --reps 3\n"
    "  --oracle-cache  tuning cache holding frost_tune's exhaustive fr_insert record for this problem\n"
    "                (frost_tune run --kernel fr_insert --preset recon-<box>-<sym>); without it no 'oracle' row\n"
    "  --work        directory for the cold caches (default: a temporary directory)\n";

struct Options {
  int box = 128;
  std::string sym = "i";
  long long images = 10000;
  int device = 0, streams = 4, buffer = 25, reps = 3;
  std::string oracle_cache, work;
  std::vector<std::string> policies{"off", "oracle", "auto", "dynamic"};
};

Options parse(int argc, char** argv) {
  Options o;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) throw_usage_error(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--box") o.box = std::stoi(value(i));
    else if (a == "--sym") o.sym = value(i);
    else if (a == "--images") o.images = std::stoll(value(i));
    else if (a == "--device") o.device = std::stoi(value(i));
    else if (a == "--streams") o.streams = std::stoi(value(i));
    else if (a == "--buffer") o.buffer = std::stoi(value(i));
    else if (a == "--reps") o.reps = std::stoi(value(i));
    else if (a == "--oracle-cache") o.oracle_cache = value(i);
    else if (a == "--work") o.work = value(i);
    else if (a == "--policies") {
      o.policies.clear();
      std::stringstream ss(value(i));
      for (std::string p; std::getline(ss, p, ',');) {
        if (p != "off" && p != "oracle" && p != "auto" && p != "dynamic")
          throw_usage_error("--policies: unknown policy '" + p + "'");
        o.policies.push_back(p);
      }
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else {
      throw_usage_error("unknown option '" + a + "'\n" + kUsage);
    }
  }
  if (o.box < 8 || o.images < 1 || o.streams < 1 || o.buffer < 1 || o.reps < 1)
    throw_usage_error("--box >= 8, --images, --streams, --buffer, --reps >= 1");
  return o;
}

double relative_l2(const recon::GridValues& a, const recon::GridValues& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Run {
  double wall_s = 0, kernel_ms = 0;
  std::string tuning;
  recon::HalfGrid grid;
};

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (cuda_device_count() <= o.device) {
    std::printf("frost_bench_tuned_reconstruction: no CUDA device %d visible; nothing to measure\n", o.device);
    return 0;
  }
  recon::ReconstructionSettings s;
  s.box = o.box;
  const recon::GridLayout layout = recon::make_grid_layout(s);
  const geom::SymmetryGroup group = geom::parse_symmetry(o.sym);
  const int inserted = recon::plan_symmetry(group, s.sym_mode).inserted.order();
  const long long spaces_per_launch = static_cast<long long>(o.buffer) * inserted;
  const double launches = std::ceil(double(o.images) / o.buffer);
  const auto images = recon::synthetic_images(o.box, 8);
  const auto particles = recon::synthetic_particles(o.images, static_cast<std::uint32_t>(o.box) * 31u + 7u);
  const recon::ImageLoader load = recon::synthetic_loader(images);
  recon::AccumulateOptions aopt;
  aopt.buffer_size = o.buffer;

  namespace fs = std::filesystem;
  const std::string work =
      o.work.empty() ? (fs::temp_directory_path() / ("frost-tuned-bench-" + std::to_string(::getpid()))).string() : o.work;
  fs::create_directories(work);
  std::vector<std::string> policies;
  for (const std::string& p : o.policies) {
    if (p == "oracle" && (o.oracle_cache.empty() || !fs::exists(o.oracle_cache + "/records.jsonl"))) {
      std::printf("note: no --oracle-cache with records.jsonl; the 'oracle' row is skipped\n");
      continue;
    }
    policies.push_back(p);
  }

  auto run_policy = [&](const std::string& policy, int rep) {
    tuning::TuningOptions t;
    t.policy = policy == "off" ? tuning::TunePolicy::Off
               : policy == "oracle" ? tuning::TunePolicy::Cached
               : policy == "auto" ? tuning::TunePolicy::Auto
                                  : tuning::TunePolicy::Dynamic;
    t.cache_dir = policy == "oracle" ? o.oracle_cache : work + "/" + policy + "-" + std::to_string(rep);
    if (policy != "oracle") fs::remove_all(t.cache_dir);
    Run r;
    const auto t0 = Clock::now();
    auto acc = cuda::make_tuned_cuda_accumulator(s, layout, 1, {o.device}, o.streams, t, spaces_per_launch, launches);
    auto grids = recon::accumulate(s, layout, group, particles, load, *acc, aopt);
    r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
    const cuda::CudaInsertStats st = cuda::cuda_insert_stats(*acc);
    r.kernel_ms = st.kernel_ms;
    r.tuning = st.tuning;
    r.grid = std::move(grids[0]);
    return r;
  };

  std::printf("tuned reconstruction: %s, %d^3 cube, %s, %lld images, buffer %d (%lld spaces per launch, ~%.0f launches), "
              "%d streams, device %d\n",
              recon::describe(layout).c_str(), layout.side(), group.name().c_str(), o.images, o.buffer,
              spaces_per_launch, launches, o.streams, o.device);
  (void)run_policy("off", -1); // warm-up: module loading, allocator, page faults
  std::map<std::string, std::vector<double>> wall, kernel;
  std::map<std::string, std::string> what;
  std::map<std::string, recon::HalfGrid> first;
  for (int rep = 0; rep < o.reps; ++rep)
    for (const std::string& p : policies) {
      Run r = run_policy(p, rep);
      wall[p].push_back(r.wall_s);
      kernel[p].push_back(r.kernel_ms);
      if (rep == 0) {
        what[p] = r.tuning;
        first[p] = std::move(r.grid);
      }
    }

  std::printf("\n%-8s %10s %12s %8s %8s %10s %10s  %s\n", "policy", "wall s", "kernel ms", "vs off", "vs oracle", "G rel L2",
              "W rel L2", "tuning (first round)");
  const double off = wall.count("off") ? median(wall["off"]) : 0;
  const double full = wall.count("oracle") ? median(wall["oracle"]) : 0;
  for (const std::string& p : policies) {
    const double w = median(wall[p]);
    double gl2 = 0, wl2 = 0;
    if (first.count("off") && p != "off") {
      gl2 = relative_l2(first[p].data, first["off"].data);
      wl2 = relative_l2(first[p].weight, first["off"].weight);
    }
    std::string t = what[p].empty() ? (p == "oracle" ? "cached record" : "-") : what[p];
    std::replace(t.begin(), t.end(), '\n', ' ');
    std::printf("%-8s %10.3f %12.2f %8.3f %8s %10.2e %10.2e  %s\n", p.c_str(), w, median(kernel[p]), off > 0 ? w / off : 0,
                full > 0 ? std::to_string(w / full).substr(0, 5).c_str() : "-", gl2, wl2, t.c_str());
  }
  // The target: auto within 10% of "full" tuning, read both ways.
  for (const char* ref : {"oracle", "dynamic"})
    if (wall.count(ref) && wall.count("auto")) {
      const double ratio = median(wall["auto"]) / median(wall[ref]);
      std::printf("auto / %s wall time: %.3f (target <= 1.10: %s)\n", ref, ratio, ratio <= 1.10 ? "met" : "NOT met");
    }
  if (o.work.empty()) fs::remove_all(work);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return frost::bench::bench_main("frost_bench_tuned_reconstruction", [&] { return run(argc, argv); });
}
