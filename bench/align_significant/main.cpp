// frost_bench_align_significant: pairs/s of the all-pairs aligner (test 24 of
// docs/align_significant.md#gpu-parity-and-benchmark) on the sharp analytic phantom at 32, 64, 128
// and 256 px, no disk I/O. The anchor task is 2,000 images x 1,692 references; the CPU path runs
// scaled-down counts (--images/--refs, default 40 x 20) because it is not a performance product
// (docs/align_significant.md#where-the-time-goes asks for >= 4,000 pairs/s at 32 px and >= 1,000 at
// 64 px on 2 cores). The anchor's GPU pairs/s are printed for reference. --device <id> times the
// CUDA backend (cuda/alignment; builds without CUDA exit 4); use --images 2000 --refs 1692 there
// for the anchor task. GPU timings exclude one untimed warm-up call per size (context, plans).
//
// Floors (GPU runs; pair_floor below): `stream_s` is the time a pipeline that streams every FFT
// and warp of a pair through device memory needs at the bandwidth measured in the same run (a
// device-to-device copy), `flop_s` the FFT, warp and product flops at the FP32 peak; x_stream and
// x_flop are seconds over each. The fused steps keep most of that traffic on chip, so x_stream
// can go below 1.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../common/bench_main.hpp"
#include "../common/gpu_facts.hpp"
#include "frost/alignment/math/polar.hpp"
#include "frost/alignment/analytic_phantom.hpp"
#include "frost/alignment/backend.hpp"
#include "frost/alignment/directions.hpp"
#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#if FROST_HAVE_CUDA_ALIGNMENT
#include "frost/cuda/alignment.hpp"
#endif

namespace {

using namespace frost;

void usage() {
  std::printf("usage: frost_bench_align_significant [--sizes 32,64,128,256] [--images 40] [--refs 20] [--threads 0]\n"
              "       [--subpixel parabolic|none] [--device cpu|<gpu ids, e.g. 0 or 0,1>] [--batch 0]\n"
              "       [--pipeline fused|tiled|cufft]\n"
              "Aligns every image to every reference (sharp analytic phantom, SNR 0.1) and prints pairs/s per size.\n");
}

/// What one pair (both orders, `iters` shift and rotation steps each, and the final CC of each
/// order) costs at least when every step streams through device memory: per shift step the warp
/// (image in and out), R2C, the product with the reference spectrum, C2R and the peak search;
/// per rotation step the polar samples, the ring R2Cs (S points, unpadded) and the ring sum.
/// Flops: 2.5 N log2 N per real transform of N points, ~10 per bilinear sample, 6 or 8 per
/// complex product; the reference's own transforms (once per reference) are left out.
struct PairFloor {
  double bytes = 0, flops = 0;
};
PairFloor pair_floor(int x, int iters) {
  const align::PolarGrid g = align::make_polar_grid(x);
  const double px = double(x) * x, half = double(x / 2 + 1) * x;
  const double rs = double(g.rings()) * g.samples, rhalf = double(g.rings()) * (g.samples / 2 + 1);
  const double shift_b = 4 * (2 * px) + (4 * px + 8 * half) + 16 * half + (8 * half + 4 * px) + 4 * px;
  const double rot_b = (4 * px + 4 * rs) + (4 * rs + 8 * rhalf) + 8 * rhalf;
  const double shift_f = 10 * px + 2 * 2.5 * px * std::log2(px) + 6 * half;
  const double rot_f = 10 * rs + (g.rings() + 1) * 2.5 * g.samples * std::log2(double(g.samples)) + 8 * rhalf;
  const double steps = 2.0 * iters; // of each kind, both orders
  PairFloor f;
  f.bytes = steps * (shift_b + rot_b) + 2 * 4 * px; // + the warped CC of each order
  f.flops = steps * (shift_f + rot_f) + 2 * 14 * px;
  return f;
}

std::vector<int> parse_sizes(const std::string& s) {
  std::vector<int> out;
  std::size_t p = 0;
  while (p < s.size()) {
    const std::size_t q = s.find(',', p);
    out.push_back(std::atoi(s.substr(p, q == std::string::npos ? std::string::npos : q - p).c_str()));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  return out;
}

int run(int argc, char** argv) {
  std::vector<int> sizes{32, 64, 128, 256};
  int n_img = 40, n_ref = 20, threads = 0;
  std::string subpixel = "parabolic", device = "cpu";
  int batch = 0;
  std::string pipeline = "fused"; // GPU: fused steps (default) or the cuFFT pipeline of every step
  for (int a = 1; a < argc; ++a) {
    const std::string k = argv[a];
    auto value = [&]() -> std::string {
      if (a + 1 >= argc) throw_usage_error(k + " needs a value");
      return argv[++a];
    };
    if (k == "--help" || k == "-h") {
      usage();
      return 0;
    } else if (k == "--sizes") {
      sizes = parse_sizes(value());
    } else if (k == "--images") {
      n_img = std::atoi(value().c_str());
    } else if (k == "--refs") {
      n_ref = std::atoi(value().c_str());
    } else if (k == "--threads") {
      threads = std::atoi(value().c_str());
    } else if (k == "--subpixel") {
      subpixel = value();
    } else if (k == "--device") {
      device = value();
    } else if (k == "--batch") {
      batch = std::atoi(value().c_str());
    } else if (k == "--pipeline") {
      pipeline = value();
      if (pipeline != "fused" && pipeline != "tiled" && pipeline != "cufft")
        throw_usage_error("--pipeline: fused, tiled or cufft");
    } else {
      throw_usage_error("unknown option " + k + " (see --help)");
    }
  }
  if (n_img < 1 || n_ref < 1) throw_usage_error("--images and --refs must be >= 1");
  align::AlignSettings settings;
  settings.subpixel = align::parse_subpixel(subpixel);
  const bool gpu = device != "cpu";
  std::unique_ptr<align::AlignmentBackend> backend;
  if (!gpu) {
    backend = align::make_cpu_backend(threads);
  } else {
    std::vector<int> ids; // "0" or "0,1": several devices split the references
    for (int id : parse_sizes(device)) {
      if (id < 0) throw_usage_error("--device: 'cpu' or GPU ids, got '" + device + "'");
      ids.push_back(id);
    }
    if (ids.empty() || device.find_first_not_of("0123456789,") != std::string::npos)
      throw_usage_error("--device: 'cpu' or GPU ids, got '" + device + "'");
#if FROST_HAVE_CUDA_ALIGNMENT
    cuda::CudaAlignOptions o;
    o.device = ids.front();
    if (batch > 0) o.max_batch = batch;
    o.fused = pipeline != "cufft";
    o.tiled_shift_everywhere = pipeline == "tiled"; // the tiled shift step also at <= 128 px
    backend = ids.size() == 1 ? cuda::make_cuda_align_backend(o) : cuda::make_cuda_align_backend(o, ids);
#else
    (void)batch;
    (void)pipeline;
    FROST_THROW(ExitCode::Device, "--device " + device + ": frost was built without CUDA");
#endif
  }
  // Anchor GPU pairs/s (Xmipp's published figures on an RTX 2080), for orientation only.
  auto anchor = [](int x) { return x == 32 ? 156000 : x == 64 ? 66700 : x == 128 ? 19600 : x == 256 ? 5280 : 0; };
  const auto blobs = align::phantom_blobs(align::PhantomKind::Sharp);
  std::printf("# %s; %d images x %d references; %s\n", backend->describe().c_str(), n_img, n_ref,
              align::to_string(settings).c_str());
  bench::GpuFacts facts;
  if (gpu) facts = bench::gpu_facts(parse_sizes(device).front());
  const double bandwidth = facts.measured_bandwidth_gbs > 0 ? facts.measured_bandwidth_gbs : facts.peak_bandwidth_gbs;
  const int n_dev = gpu ? static_cast<int>(parse_sizes(device).size()) : 0;
  const bool floors = facts.available && bandwidth > 0 && facts.peak_fp32_gflops > 0;
  if (floors)
    std::printf("# floors per device (x %d): %.0f GB/s measured (D2D copy), FP32 peak %.0f GFLOP/s\n", n_dev, bandwidth,
                facts.peak_fp32_gflops);
  std::printf("%6s %10s %12s %12s %16s %10s %9s %10s %9s\n", "size", "pairs", "seconds", "pairs/s",
              "anchor GPU pairs/s", "stream_s", "x_stream", "flop_s", "x_flop");
  for (int x : sizes) {
    if (x < 16 || x % 2) throw_usage_error("sizes must be even and >= 16");
    const auto dirs = align::fibonacci_directions(n_ref);
    Image<float> refs(Shape::image(x, x, n_ref)), imgs(Shape::image(x, x, n_img));
    for (int r = 0; r < n_ref; ++r)
      align::render_projection(blobs, x, dirs[std::size_t(r)], 0, 0, refs.data() + std::size_t(r) * x * x);
    for (int i = 0; i < n_img; ++i) {
      geom::EulerAngles pose = dirs[std::size_t(i % n_ref)];
      pose.psi = 37.0 * i;
      float* img = imgs.data() + std::size_t(i) * x * x;
      align::render_projection(blobs, x, pose, 0.05 * x * std::cos(i), 0.05 * x * std::sin(i), img);
      align::add_noise(img, std::size_t(x) * x, 0.1, 77u + static_cast<std::uint32_t>(i));
    }
    std::vector<align::PairResult> res(std::size_t(n_ref) * n_img);
    if (gpu) { // untimed warm-up: CUDA contexts, cuFFT plans (a few references, so every device gets one)
      View<const float> one{refs.data(), Shape::image(x, x, std::min(n_ref, 8))};
      backend->align_all(one, imgs.cview(), settings, res.data());
    }
    const auto t0 = std::chrono::steady_clock::now();
    backend->align_all(refs.cview(), imgs.cview(), settings, res.data());
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double pairs = double(n_ref) * n_img;
    std::printf("%6d %10.0f %12.3f %12.0f %16d", x, pairs, s, pairs / s, anchor(x));
    if (floors) {
      const PairFloor f = pair_floor(x, settings.iters);
      const double stream_s = pairs * f.bytes / (bandwidth * 1e9 * n_dev);
      const double flop_s = pairs * f.flops / (facts.peak_fp32_gflops * 1e9 * n_dev);
      std::printf(" %10.3f %9.2f %10.3f %9.1f\n", stream_s, s / stream_s, flop_s, s / flop_s);
    } else {
      std::printf(" %10s %9s %10s %9s\n", "-", "-", "-", "-");
    }
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return frost::bench::bench_main("frost_bench_align_significant", [&] { return run(argc, argv); });
}
