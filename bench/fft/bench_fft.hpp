#pragma once
// frost_bench_fft: shared types of the CPU and CUDA timing halves.
#include <string>
#include <vector>

#include "frost/fft/spec.hpp"

namespace frost::bench {

struct Settings {
  bool quick = false;
  bool csv = false;
  int reps = 10;   ///< timed executions per measurement; the median is reported
  int warmup = 2;  ///< untimed executions first (lazy loading, first-touch, caches)
  double gpu_bandwidth_gbs = 0.0; ///< floor for the GPU column; 0 = the device's peak (memory clock x bus width)
  double cpu_bandwidth_gbs = 0.0;    ///< 0 = no floor column for the CPU
  int threads = 0;                   ///< FFTW threads, 0 = frost::num_threads()
  fft::FftRigor rigor = fft::FftRigor::Estimate;
  bool cpu = true, cuda = true;
};

/// Medians in milliseconds of one transform through the wrapper and through the raw library.
struct Timing {
  double wrapper_ms = 0;
  double raw_ms = 0;
};

double median(std::vector<double> v);
/// Deterministic values in [-1, 1) for `bytes` bytes of floats.
std::vector<float> bench_data(std::size_t bytes);

/// FFTW through frost::fft against fftwf_plan_many_dft_* + fftwf_execute, same flags/threads.
Timing time_cpu(const fft::FftSpec& spec, const Settings& s);
/// True when the CUDA half is compiled in and a GPU is visible.
bool cuda_available();
/// "NVIDIA H100 ..." of device 0.
std::string cuda_device_name();
/// cuFFT through frost::fft against cufftPlanMany + cufftExec*, CUDA events on one stream.
Timing time_cuda(const fft::FftSpec& spec, const Settings& s);

} // namespace frost::bench
