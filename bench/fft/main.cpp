// frost_bench_fft: FFT throughput of frost::fft against the raw libraries (FFTW on the CPU,
// cuFFT on the GPU) for movie frames and particle batches, R2C forward and C2R inverse.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

#include "../common/bench_main.hpp"
#include "bench_fft.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/fft/versions.hpp"

namespace frost::bench {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::vector<float> bench_data(std::size_t bytes) {
  std::vector<float> v((bytes + sizeof(float) - 1) / sizeof(float));
  std::mt19937 gen(1234);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (float& f : v) f = dist(gen);
  return v;
}

namespace {

const char* kUsage =
    "usage: frost_bench_fft [--quick] [--csv] [--reps N] [--bandwidth-gbs GBS]\n"
    "                       [--cpu-bandwidth-gbs GBS] [--threads N] [--rigor estimate|measure|patient]\n"
    "                       [--backend cpu|cuda|all]\n"
    "Times R2C forward and C2R inverse out-of-place f32 transforms through frost::fft (wrapper)\n"
    "and through the library directly (raw), median of --reps (default 10) after 2 warm-ups.\n"
    "GB/s counts the input and output bytes once each; %floor compares that with the memory\n"
    "bandwidth given (--bandwidth-gbs, default the GPU's peak from its memory clock and bus width; CPU only if\n"
    "--cpu-bandwidth-gbs is given). --quick runs small sizes only (CI).\n";

struct Case {
  const char* group;
  Shape shape;
};

std::vector<Case> cases(bool quick) {
  if (quick)
    return {{"movie", Shape::image(512, 480, 3)}, {"movie", Shape::image(1024, 1024)},
            {"particles", Shape::image(128, 128, 64)}, {"volume", Shape::volume(64, 64, 64)}};
  return {{"movie", Shape::image(4096, 4096)},        {"movie", Shape::image(3838, 3710)},
          {"movie", Shape::image(3840, 3750)},        {"movie", Shape::image(5760, 4092)},
          {"movie", Shape::image(4096, 4096, 8)},     {"particles", Shape::image(128, 128, 1000)},
          {"particles", Shape::image(256, 256, 500)}, {"volume", Shape::volume(256, 256, 256)}};
}

Settings parse(int argc, char** argv) {
  Settings s;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) throw_usage_error(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") s.quick = true;
    else if (a == "--csv") s.csv = true;
    else if (a == "--reps") s.reps = std::stoi(value(i));
    else if (a == "--bandwidth-gbs") s.gpu_bandwidth_gbs = std::stod(value(i));
    else if (a == "--cpu-bandwidth-gbs") s.cpu_bandwidth_gbs = std::stod(value(i));
    else if (a == "--threads") s.threads = std::stoi(value(i));
    else if (a == "--rigor") s.rigor = fft::parse_rigor(value(i));
    else if (a == "--backend") {
      const std::string b = value(i);
      if (b != "cpu" && b != "cuda" && b != "all") throw_usage_error("--backend must be cpu, cuda or all");
      s.cpu = b != "cuda";
      s.cuda = b != "cpu";
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else
      throw_usage_error("unknown option '" + a + "'\n" + kUsage);
  }
  if (s.reps < 1) throw_usage_error("--reps must be >= 1");
  if (s.rigor == fft::FftRigor::WisdomOnly) throw_usage_error("--rigor wisdom-only is not a benchmark setting");
  return s;
}

void print_row(const Settings& s, const char* group, const fft::FftSpec& spec, const char* backend,
               const Timing& t, double floor_gbs) {
  const double bytes = static_cast<double>(spec.input_bytes() + spec.output_bytes());
  const double gbs = bytes / (t.wrapper_ms * 1e-3) / 1e9;
  const double ratio = t.wrapper_ms / t.raw_ms;
  const std::string size = std::to_string(spec.x) + "x" + std::to_string(spec.y) + "x" + std::to_string(spec.z);
  const std::string kind = fft::to_string(spec.kind);
  char pct[32] = "-";
  if (floor_gbs > 0) std::snprintf(pct, sizeof pct, "%.1f", 100.0 * gbs / floor_gbs);
  if (s.csv)
    std::printf("%s,%s,%lld,%s,%s,%.4f,%.4f,%.3f,%.2f,%s\n", group, size.c_str(), static_cast<long long>(spec.batch),
                kind.c_str(), backend, t.wrapper_ms, t.raw_ms, ratio, gbs, floor_gbs > 0 ? pct : "");
  else
    std::printf("%-9s %-14s %5lld %-4s %-5s %11.3f %9.3f %6.3f %8.1f %7s\n", group, size.c_str(),
                static_cast<long long>(spec.batch), kind.c_str(), backend, t.wrapper_ms, t.raw_ms, ratio, gbs, pct);
  std::fflush(stdout);
}

int run(const Settings& s) {
  const bool gpu = s.cuda && cuda_available();
  const int threads = s.threads > 0 ? s.threads : num_threads();
  const char* c = "# "; // header lines are comments in both the table and the CSV
  std::printf("%sfrost_bench_fft: wrapper (frost::fft) vs raw library, out-of-place f32, median of %d after %d "
              "warm-ups\n", c, s.reps, s.warmup);
  std::printf("%s%s\n", c, fft::fft_versions().c_str());
  if (s.cpu) std::printf("%scpu: FFTW, %d threads, rigor %s\n", c, threads, fft::to_string(s.rigor).c_str());
  Settings eff = s;
  if (gpu && eff.gpu_bandwidth_gbs <= 0) eff.gpu_bandwidth_gbs = cuda_peak_bandwidth_gbs(0);
  if (gpu)
    std::printf("%scuda: %s, bandwidth floor %.0f GB/s (%s)\n", c, cuda_device_name().c_str(), eff.gpu_bandwidth_gbs,
                s.gpu_bandwidth_gbs > 0 ? "--bandwidth-gbs" : "peak from the device's memory clock and bus width");
  else if (s.cuda) std::printf("%scuda: skipped (no GPU visible, or built without CUDA)\n", c);
  std::printf("%sGB/s = (input + output bytes) / wrapper median; ratio = wrapper / raw\n", c);
  if (s.csv) std::printf("group,size,batch,kind,backend,wrapper_ms,raw_ms,ratio,gbs,floor_pct\n");
  else
    std::printf("%-9s %-14s %5s %-4s %-5s %11s %9s %6s %8s %7s\n", "group", "size", "batch", "kind", "back",
                "wrapper_ms", "raw_ms", "ratio", "GB/s", "%floor");
  for (const Case& k : cases(s.quick))
    for (const fft::FftSpec& spec : {fft::FftSpec::r2c(k.shape), fft::FftSpec::c2r(k.shape)}) {
      if (s.cpu) print_row(s, k.group, spec, "cpu", time_cpu(spec, s), s.cpu_bandwidth_gbs);
      if (gpu) print_row(s, k.group, spec, "cuda", time_cuda(spec, s), eff.gpu_bandwidth_gbs);
    }
  return 0;
}

} // namespace
} // namespace frost::bench

int main(int argc, char** argv) {
  return frost::bench::bench_main("frost_bench_fft", [&] { return frost::bench::run(frost::bench::parse(argc, argv)); });
}
