// The CPU measurer (docs/fft_advisor.md#the-fftw-measurer): the measurement protocol with FFTW
// through frost::fft's CPU planner (so planning shares the process-wide FFTW lock and wisdom),
// timed with a steady clock.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <vector>

#include "frost/core/device.hpp"
#include "frost/fft/advisor_backend.hpp"
#include "frost/fft/fftw_wisdom_file.hpp"
#include "frost/fft/planner.hpp"
#include "frost/fft/versions.hpp"

namespace frost::fft {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Deterministic values in [-1, 1) (splitmix64): identical input for every candidate and run.
void fill_pseudo_random(float* data, std::size_t count, std::uint32_t seed) {
  std::uint64_t state = 0x9e3779b97f4a7c15ull ^ seed;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    data[i] = static_cast<float>(static_cast<double>(z >> 40) * (2.0 / 16777216.0) - 1.0);
  }
}

/// Median of a non-empty list (mean of the middle two for an even count).
double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

class FftwMeasurer final : public Measurer {
public:
  explicit FftwMeasurer(int threads) : threads_(threads) {}

  Measurement measure(const Candidate& c, const Protocol& p) override {
    // A failing configuration is a result (ranked last by find), never an exception.
    try {
      return run(c, p);
    } catch (const std::exception& e) {
      return failed(e.what());
    } catch (...) {
      return failed("unknown error while measuring");
    }
  }

  std::string device_identity() const override {
    return "fftw|" + cpu_model() + "|" + cpu_isa_level() + "|" + std::to_string(threads_);
  }
  std::string library_versions() const override { return fftw_version(); }
  std::string device_uuid() const override { return frost::host_name(); }
  // Measured plans leave wisdom behind; keep it per machine so later runs plan instantly
  // (docs/fft_advisor.md#wisdom).
  void begin_session(const std::string& cache_dir) override { load_fftw_wisdom(cache_dir, Precision::F32); }
  void end_session(const std::string& cache_dir) override { save_fftw_wisdom(cache_dir, Precision::F32); }

private:
  static Measurement failed(const std::string& why) {
    Measurement m;
    m.status = "error";
    m.error = why.empty() ? std::string("unknown error") : why;
    return m;
  }

  static Measurement run(const Candidate& c, const Protocol& p) {
    FftSpec spec = c.spec();
    if (!c.batched) spec.batch = 1; // one signal per execution
    // A planner of our own: its plan is made (and timed) here and released with it (every candidate
    // is measured on fresh resources), instead of being served from or left in a shared plan cache.
    const std::shared_ptr<Planner> planner = make_planner(Backend::Cpu);
    PlanOptions opts;
    opts.rigor = p.fftw_effort;
    opts.threads = p.fftw_threads;
    opts.time_limit_s = 5.0; // bounds each measuring plan (docs/fft_advisor.md#the-fftw-measurer)

    Measurement m;
    const Clock::time_point t_plan = Clock::now();
    const FftPlan plan = planner->plan(spec, opts);
    m.plan_ms = ms_since(t_plan);
    m.plan_bytes_actual = plan.workspace_bytes();

    const bool in_place = spec.placement == Placement::InPlace;
    // Through the planner: aligned memory of the planner's space, as the plan expects.
    std::vector<FftBuffer> buffers;
    buffers.push_back(planner->allocate(in_place ? spec.data_bytes() : spec.input_bytes()));
    if (!in_place) buffers.push_back(planner->allocate(spec.output_bytes()));
    FftBuffer& in = buffers.front();
    void* in_ptr = in.data();
    void* out_ptr = buffers.back().data();

    // Filled after planning: FFTW's measuring planner may overwrite the arrays it is given.
    const std::size_t in_floats = spec.input_bytes() / sizeof(float);
    fill_pseudo_random(in.as<float>(), in_floats, p.seed);
    // In place the output overwrites the input, and C2R destroys its input: restore it before
    // every execution (outside the timed interval) so each one transforms the same data instead
    // of values that grow by the transform size each time.
    const bool restore = in_place || spec.kind == Kind::C2R;
    std::vector<float> pristine;
    if (restore) pristine.assign(in.as<float>(), in.as<float>() + in_floats);
    const auto prepare = [&] {
      if (restore) std::memcpy(in_ptr, pristine.data(), in_floats * sizeof(float));
    };

    for (int i = 0; i < p.warmup; ++i) {
      prepare();
      plan.execute(in_ptr, out_ptr);
    }
    const int cap = std::max(1, p.max_samples);
    const int reps = std::min(std::max(1, p.reps), cap);
    std::vector<double> exec_ms;
    double total_ms = 0;
    while (static_cast<int>(exec_ms.size()) < cap &&
           (static_cast<int>(exec_ms.size()) < reps || total_ms < p.min_total_ms)) {
      prepare();
      const Clock::time_point t0 = Clock::now();
      plan.execute(in_ptr, out_ptr);
      const double ms = ms_since(t0);
      exec_ms.push_back(ms);
      total_ms += ms;
    }

    const double per = static_cast<double>(spec.batch);
    const double n = static_cast<double>(exec_ms.size());
    double sum = 0, lowest = exec_ms.front();
    for (double t : exec_ms) {
      sum += t;
      lowest = std::min(lowest, t);
    }
    const double mean = sum / n;
    double sq = 0;
    for (double t : exec_ms) sq += (t - mean) * (t - mean);
    m.samples = static_cast<int>(exec_ms.size());
    m.ms_per_exec = median_of(exec_ms);
    m.median_ms_per_signal = m.ms_per_exec / per;
    m.mean_ms_per_signal = mean / per;
    m.min_ms_per_signal = lowest / per;
    m.std_ms_per_signal = (exec_ms.size() > 1 ? std::sqrt(sq / (n - 1)) : 0.0) / per;
    m.status = "ok";
    return m;
  }

  int threads_;
};

} // namespace

std::unique_ptr<Measurer> make_fftw_measurer(int threads) { return std::make_unique<FftwMeasurer>(threads); }

} // namespace frost::fft
