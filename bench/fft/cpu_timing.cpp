// CPU half: the wrapper and raw FFTW, each on its own 64-byte aligned arrays.
#include <fftw3.h>

#include <chrono>
#include <cstring>

#include "bench_fft.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/core/threads.hpp"
#include "frost/fft/planner.hpp"

namespace frost::bench {

namespace {

using Clock = std::chrono::steady_clock;

unsigned raw_flags(const fft::FftSpec& spec, fft::FftRigor r) {
  unsigned f = r == fft::FftRigor::Measure      ? FFTW_MEASURE
               : r == fft::FftRigor::Patient    ? FFTW_PATIENT
               : r == fft::FftRigor::Exhaustive ? FFTW_EXHAUSTIVE
                                                : FFTW_ESTIMATE;
  return f | (spec.kind == fft::Kind::C2R ? FFTW_DESTROY_INPUT : FFTW_PRESERVE_INPUT);
}

/// Runs `once` warm-up + reps times; C2R input is restored from `pristine` before each run
/// (outside the timed interval), since the transform overwrites it.
template <class F>
double time_runs(const fft::FftSpec& spec, const Settings& s, void* in, const void* pristine, F&& once) {
  std::vector<double> ms;
  for (int i = 0; i < s.warmup + s.reps; ++i) {
    if (spec.kind == fft::Kind::C2R) std::memcpy(in, pristine, spec.input_bytes());
    const auto t0 = Clock::now();
    once();
    const auto t1 = Clock::now();
    if (i >= s.warmup) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return median(ms);
}

} // namespace

Timing time_cpu(const fft::FftSpec& spec, const Settings& s) {
  const int threads = s.threads > 0 ? s.threads : num_threads();
  const auto data = bench_data(spec.input_bytes());
  HostBuffer<std::byte> in(spec.input_bytes()), out(spec.output_bytes());
  Timing t;
  {
    fft::PlanOptions o;
    o.rigor = s.rigor;
    o.threads = threads;
    const fft::FftPlan plan = fft::make_planner(fft::Backend::Cpu)->plan(spec, o); // also fftwf_init_threads
    std::memcpy(in.data(), data.data(), spec.input_bytes());
    t.wrapper_ms = time_runs(spec, s, in.data(), data.data(), [&] { plan.execute(in.data(), out.data()); });
  }
  // The raw library as a caller would use it: the advanced interface with the dense layout.
  int n[3];
  const int rank = spec.rank();
  const index_t all[3] = {spec.z, spec.y, spec.x};
  for (int d = 0; d < rank; ++d) n[d] = static_cast<int>(all[3 - rank + d]);
  const int real = static_cast<int>(spec.signal_elements());
  const int half = static_cast<int>(spec.signal_elements() / spec.x * (spec.x / 2 + 1));
  const int batch = static_cast<int>(spec.batch);
  fftwf_plan_with_nthreads(threads);
  fftwf_plan p = nullptr;
  if (spec.kind == fft::Kind::R2C)
    p = fftwf_plan_many_dft_r2c(rank, n, batch, reinterpret_cast<float*>(in.data()), nullptr, 1, real,
                                reinterpret_cast<fftwf_complex*>(out.data()), nullptr, 1, half, raw_flags(spec, s.rigor));
  else
    p = fftwf_plan_many_dft_c2r(rank, n, batch, reinterpret_cast<fftwf_complex*>(in.data()), nullptr, 1, half,
                                reinterpret_cast<float*>(out.data()), nullptr, 1, real, raw_flags(spec, s.rigor));
  std::memcpy(in.data(), data.data(), spec.input_bytes()); // measuring planners overwrite arrays
  t.raw_ms = time_runs(spec, s, in.data(), data.data(), [&] { fftwf_execute(p); });
  fftwf_destroy_plan(p);
  return t;
}

} // namespace frost::bench
