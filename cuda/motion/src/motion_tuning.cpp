#include "frost/cuda/motion_tuning.hpp"

#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/cuda/check.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "frost/cuda/tuning.hpp"
#include "frost/tuning/kernel_spaces.hpp"
#include "frost/tuning/key.hpp"
#include "frost/tuning/program_selection.hpp"
#include "motion_kernels.hpp"

namespace frost::cuda {
namespace {

std::int64_t value_of(const tuning::NamedConfig& config, const char* kernel, const char* name) {
  if (const auto v = tuning::value_of(config, name)) return *v;
  FROST_THROW(ExitCode::Usage, std::string(kernel) + " configuration without " + name);
}

/// Uniform random floats in [-1, 1) on the host (fixed seed), uploaded.
DeviceBuffer<float> random_device_floats(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> host(n);
  for (float& v : host) v = u(rng);
  DeviceBuffer<float> d(n);
  FROST_CUDA_CHECK(cudaMemcpy(d.data(), host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

/// The check of docs/tune.md#offline-protocol for a pure kernel with complex output: `out` is
/// filled with NaN (so that an element a configuration does not write shows), `launch` writes it,
/// and it is compared with `reference` on the device.
template <class Launch>
double complex_difference(const DeviceBuffer<cufftComplex>& reference, DeviceBuffer<cufftComplex>& out,
                          cudaStream_t stream, const Launch& launch) {
  FROST_CUDA_CHECK(cudaMemsetAsync(out.data(), 0xff, out.bytes(), stream));
  launch();
  return device_relative_max_difference(reinterpret_cast<const float*>(reference.data()),
                                        reinterpret_cast<const float*>(out.data()), 2 * out.size(), stream);
}

tuning::NamedConfig named(const CorrelateLaunch& l) {
  return {{"TILE", l.tile}, {"BLOCK_X", l.block_x}, {"BLOCK_Y", l.block_y}};
}
tuning::NamedConfig named(const CropFilterLaunch& l) { return {{"BLOCK_X", l.block_x}, {"BLOCK_Y", l.block_y}}; }

/// select_correlate_launch / select_crop_filter_launch: one cache read and one log line per
/// process, kernel, device, problem and options; later movies of a batch reuse the answer.
template <class Launch, class MakeSpace, class From>
Launch select_launch(const char* kernel, MakeSpace make_space, From from, int device, const std::string& problem,
                     const tuning::TuningOptions& options, const Launch& fallback) {
  static std::mutex mutex;
  static std::map<std::string, tuning::NamedConfig> chosen;
  const std::string memo = std::string(kernel) + "|" + std::to_string(device) + "|" + problem + "|" +
                           tuning::to_string(options.policy) + "|" + options.cache_dir;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = chosen.find(memo);
  if (it == chosen.end()) {
    const tuning::KernelSpace space = make_space(device_limits(device));
    const tuning::TuningKey key = tuning::tuning_key(space.kernel, space.space, cuda_device_info(device), problem);
    tuning::Selection s = tuning::select_for_program(options, key, space);
    // Without a record the pipeline's own default (tuned on an H100) stands, not the space's.
    if (s.source == tuning::ConfigSource::Default) s.config = named(fallback);
    log_info("tuning " + tuning::describe_selection(space.kernel, s, options) + " (" + problem + ")");
    it = chosen.emplace(memo, s.config).first;
  }
  return from(it->second);
}

} // namespace

CorrelateLaunch select_correlate_launch(index_t cx, index_t cy, int pairs, int device,
                                        const tuning::TuningOptions& options, const CorrelateLaunch& fallback) {
  return select_launch("ma_correlate", tuning::ma_correlate_space, correlate_launch_from, device,
                       ma_correlate_problem_key(cx, cy, pairs).str(), options, fallback);
}

CropFilterLaunch select_crop_filter_launch(index_t mx, index_t my, index_t cx, index_t cy, int count, int device,
                                           const tuning::TuningOptions& options, const CropFilterLaunch& fallback) {
  return select_launch("fourier_crop_filter", tuning::fourier_crop_filter_space, crop_filter_launch_from, device,
                       crop_filter_problem_key(mx, my, cx, cy, count).str(), options, fallback);
}

CorrelateLaunch correlate_launch_from(const tuning::NamedConfig& c) {
  CorrelateLaunch l;
  l.tile = static_cast<int>(value_of(c, "ma_correlate", "TILE"));
  l.block_x = static_cast<int>(value_of(c, "ma_correlate", "BLOCK_X"));
  l.block_y = static_cast<int>(value_of(c, "ma_correlate", "BLOCK_Y"));
  return l;
}

CropFilterLaunch crop_filter_launch_from(const tuning::NamedConfig& c) {
  CropFilterLaunch l;
  l.block_x = static_cast<int>(value_of(c, "fourier_crop_filter", "BLOCK_X"));
  l.block_y = static_cast<int>(value_of(c, "fourier_crop_filter", "BLOCK_Y"));
  return l;
}

tuning::ProblemKey ma_correlate_problem_key(index_t cx, index_t cy, int pairs) {
  return tuning::ProblemKey().size("size", {cx / 2 + 1, cy}).text("cplx", "f32").bucket("batch", pairs);
}

tuning::ProblemKey crop_filter_problem_key(index_t mx, index_t my, index_t cx, index_t cy, int count) {
  return tuning::ProblemKey()
      .size("in", {mx / 2 + 1, my})
      .size("out", {cx / 2 + 1, cy})
      .text("cplx", "f32")
      .bucket("batch", count);
}

// ---- ma_correlate ------------------------------------------------------------------------------

struct CorrelateKernelBench::Impl {
  index_t hx = 0, cy = 0;
  int pairs = 0;
  DeviceBuffer<float> spectra;                // frames x hx x cy complex
  DeviceBuffer<int2> pair_list;
  DeviceBuffer<cufftComplex> reference, out;  // pairs x hx x cy
  Stream stream;
  LaunchTimer timer{stream.get()};
  void launch(const CorrelateLaunch& l, cufftComplex* dst) {
    motion_kernels::pair_products(reinterpret_cast<const cufftComplex*>(spectra.data()), pair_list.data(), pairs, hx,
                                  cy, dst, stream.get(), l);
  }
};

CorrelateKernelBench::CorrelateKernelBench(index_t cx, index_t cy, int frames, int pairs, int device) {
  if (frames < 2 || pairs < 1 || static_cast<long long>(pairs) > static_cast<long long>(frames) * (frames - 1) / 2)
    FROST_THROW(ExitCode::Usage, "correlation bench: needs 1 to frames (frames - 1) / 2 pairs of at least 2 frames");
  DeviceGuard guard(device);
  impl_ = std::make_unique<Impl>();
  Impl& m = *impl_;
  m.hx = cx / 2 + 1;
  m.cy = cy;
  m.pairs = pairs;
  const std::size_t per = static_cast<std::size_t>(m.hx * cy);
  m.spectra = random_device_floats(2 * per * static_cast<std::size_t>(frames), 20261122u);
  std::vector<int2> list;
  for (int i = 0; i < frames && static_cast<int>(list.size()) < pairs; ++i)
    for (int j = i + 1; j < frames && static_cast<int>(list.size()) < pairs; ++j) list.push_back(int2{i, j});
  m.pair_list = DeviceBuffer<int2>(list.size());
  FROST_CUDA_CHECK(cudaMemcpy(m.pair_list.data(), list.data(), list.size() * sizeof(int2), cudaMemcpyHostToDevice));
  m.reference = DeviceBuffer<cufftComplex>(per * static_cast<std::size_t>(pairs));
  m.out = DeviceBuffer<cufftComplex>(per * static_cast<std::size_t>(pairs));
  m.launch(CorrelateLaunch{}, m.reference.data());
  m.stream.synchronize();
}

CorrelateKernelBench::~CorrelateKernelBench() = default;

double CorrelateKernelBench::sample_ms(const CorrelateLaunch& l) {
  return impl_->timer.time_ms([&](cudaStream_t) { impl_->launch(l, impl_->out.data()); });
}

double CorrelateKernelBench::difference(const CorrelateLaunch& l) {
  Impl& m = *impl_;
  return complex_difference(m.reference, m.out, m.stream.get(), [&] { m.launch(l, m.out.data()); });
}

// ---- fourier_crop_filter -----------------------------------------------------------------------

struct CropFilterKernelBench::Impl {
  index_t mx = 0, my = 0, cx = 0, cy = 0;
  int count = 0;
  DeviceBuffer<float> full, filter;
  DeviceBuffer<cufftComplex> reference, out;
  Stream stream;
  LaunchTimer timer{stream.get()};
  void launch(const CropFilterLaunch& l, cufftComplex* dst) {
    motion_kernels::crop_filter(reinterpret_cast<const cufftComplex*>(full.data()), mx, my, count, filter.data(),
                                1.0f / static_cast<float>(mx * my), dst, cx, cy, stream.get(), l);
  }
};

CropFilterKernelBench::CropFilterKernelBench(index_t mx, index_t my, index_t cx, index_t cy, int count, int device) {
  if (count < 1 || cx > mx || cy > my) FROST_THROW(ExitCode::Usage, "crop + filter bench: bad sizes");
  DeviceGuard guard(device);
  impl_ = std::make_unique<Impl>();
  Impl& m = *impl_;
  m.mx = mx;
  m.my = my;
  m.cx = cx;
  m.cy = cy;
  m.count = count;
  m.full = random_device_floats(2 * static_cast<std::size_t>((mx / 2 + 1) * my) * static_cast<std::size_t>(count), 7u);
  m.filter = random_device_floats(static_cast<std::size_t>((cx / 2 + 1) * cy), 11u);
  const std::size_t n = static_cast<std::size_t>((cx / 2 + 1) * cy) * static_cast<std::size_t>(count);
  m.reference = DeviceBuffer<cufftComplex>(n);
  m.out = DeviceBuffer<cufftComplex>(n);
  m.launch(CropFilterLaunch{}, m.reference.data());
  m.stream.synchronize();
}

CropFilterKernelBench::~CropFilterKernelBench() = default;

double CropFilterKernelBench::sample_ms(const CropFilterLaunch& l) {
  return impl_->timer.time_ms([&](cudaStream_t) { impl_->launch(l, impl_->out.data()); });
}

double CropFilterKernelBench::difference(const CropFilterLaunch& l) {
  Impl& m = *impl_;
  return complex_difference(m.reference, m.out, m.stream.get(), [&] { m.launch(l, m.out.data()); });
}

} // namespace frost::cuda
