// frost_bench_align_significant: pairs/s of the all-pairs aligner (align-significant.md §9,
// §12.5 test 24) on the sharp analytic phantom at 32, 64, 128 and 256 px, no disk I/O.
// The Table 2.2 task is 2,000 images x 1,692 references; the CPU path runs scaled-down counts
// (--images/--refs, default 40 x 20) because it is not a performance product (§9.3 asks for
// >= 4,000 pairs/s at 32 px and >= 1,000 at 64 px on 2 cores). The anchor's GPU pairs/s are
// printed for reference. --device <id> times the CUDA backend (cuda/alignment; builds without
// CUDA exit 4); use --images 2000 --refs 1692 there for the Table 2.2 task. GPU timings exclude
// one untimed warm-up call per size (context, plans).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../common/bench_main.hpp"
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
              "       [--pipeline fused|cufft]\n"
              "Aligns every image to every reference (sharp analytic phantom, SNR 0.1) and prints pairs/s per size.\n");
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
      if (pipeline != "fused" && pipeline != "cufft") throw_usage_error("--pipeline: fused or cufft");
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
    o.fused = pipeline == "fused";
    backend = ids.size() == 1 ? cuda::make_cuda_align_backend(o) : cuda::make_cuda_align_backend(o, ids);
#else
    (void)batch;
    (void)pipeline;
    FROST_THROW(ExitCode::Device, "--device " + device + ": frost was built without CUDA");
#endif
  }
  // Anchor GPU pairs/s (seed 000 Table 2.2, RTX 2080), for orientation only.
  auto anchor = [](int x) { return x == 32 ? 156000 : x == 64 ? 66700 : x == 128 ? 19600 : x == 256 ? 5280 : 0; };
  const auto blobs = align::phantom_blobs(align::PhantomKind::Sharp);
  std::printf("# %s; %d images x %d references; %s\n", backend->describe().c_str(), n_img, n_ref,
              align::to_string(settings).c_str());
  std::printf("%6s %10s %12s %12s %16s\n", "size", "pairs", "seconds", "pairs/s", "anchor GPU pairs/s");
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
    std::printf("%6d %10.0f %12.3f %12.0f %16d\n", x, pairs, s, pairs / s, anchor(x));
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return frost::bench::bench_main("frost_bench_align_significant", [&] { return run(argc, argv); });
}
