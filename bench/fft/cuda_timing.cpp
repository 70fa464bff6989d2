// CUDA half: the wrapper and raw cuFFT on one stream, timed with CUDA events around each
// execution, so the wrapper's host-side work shows up when it delays the launch.
#include <cuda_runtime.h>
#include <cufft.h>

#include "bench_fft.hpp"
#include "frost/core/device.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "frost/cuda/fft.hpp"

namespace frost::bench {

namespace {

template <class F>
double time_runs(const fft::FftSpec& spec, const Settings& s, cuda::Stream& st, void* in, const void* pristine,
                 F&& once) {
  cuda::Event a, b;
  std::vector<double> ms;
  for (int i = 0; i < s.warmup + s.reps; ++i) {
    if (spec.kind == fft::Kind::C2R) // C2R overwrites its input: restore it outside the timing
      FROST_CUDA_CHECK(cudaMemcpyAsync(in, pristine, spec.input_bytes(), cudaMemcpyDeviceToDevice, st.get()));
    a.record(st.get());
    once();
    b.record(st.get());
    b.synchronize();
    if (i >= s.warmup) ms.push_back(b.elapsed_ms_since(a));
  }
  return median(ms);
}

} // namespace

bool cuda_available() { return cuda_device_count() > 0; }
std::string cuda_device_name() { return cuda_device_description(0); }

Timing time_cuda(const fft::FftSpec& spec, const Settings& s) {
  const auto data = bench_data(spec.input_bytes());
  cuda::Stream st;
  cuda::DeviceBuffer<std::byte> pristine(spec.input_bytes()), in(spec.input_bytes()), out(spec.output_bytes());
  pristine.upload_async(reinterpret_cast<const std::byte*>(data.data()), spec.input_bytes(), st.get());
  FROST_CUDA_CHECK(cudaMemcpyAsync(in.data(), pristine.data(), spec.input_bytes(), cudaMemcpyDeviceToDevice, st.get()));
  st.synchronize();
  Timing t;
  {
    const fft::FftPlan plan = fft::make_planner(fft::Backend::Cuda, 0)->plan(spec);
    t.wrapper_ms = time_runs(spec, s, st, in.data(), pristine.data(),
                             [&] { plan.execute(in.data(), out.data(), cuda::on_stream(st.get())); });
  }
  int n[3];
  const int rank = spec.rank();
  const index_t all[3] = {spec.z, spec.y, spec.x};
  for (int d = 0; d < rank; ++d) n[d] = static_cast<int>(all[3 - rank + d]);
  cufftHandle h;
  const bool r2c = spec.kind == fft::Kind::R2C;
  // NULL embeds: cuFFT's basic layout, which is the dense layout frost uses out of place.
  FROST_CUFFT_CHECK(cufftPlanMany(&h, rank, n, nullptr, 1, 0, nullptr, 1, 0, r2c ? CUFFT_R2C : CUFFT_C2R,
                                  static_cast<int>(spec.batch)));
  FROST_CUFFT_CHECK(cufftSetStream(h, st.get()));
  auto* i = in.data();
  auto* o = out.data();
  t.raw_ms = time_runs(spec, s, st, in.data(), pristine.data(), [&] {
    if (r2c)
      FROST_CUFFT_CHECK(cufftExecR2C(h, reinterpret_cast<cufftReal*>(i), reinterpret_cast<cufftComplex*>(o)));
    else
      FROST_CUFFT_CHECK(cufftExecC2R(h, reinterpret_cast<cufftComplex*>(i), reinterpret_cast<cufftReal*>(o)));
  });
  cufftDestroy(h);
  return t;
}

} // namespace frost::bench
