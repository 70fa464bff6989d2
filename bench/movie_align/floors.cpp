// The floor of one movie size on a GPU: its raw bytes over the measured pinned H2D bandwidth plus
// one full-size R2C per frame (the forward transforms that every frame needs).
// Measured through frost::fft so this file needs no CUDA headers.
#include <chrono>

#include "bench_movie.hpp"
#include "frost/core/device.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/fft/planner.hpp"

namespace frost::bench {

Floors measure_floors(const MovieSize& size, int device) {
  Floors f;
  if (!cuda_compiled() || device < 0 || device >= cuda_device_count()) return f;
  auto planner = fft::shared_planner(fft::Backend::Cuda, device);
  f.device = planner->describe();
  using Clock = std::chrono::steady_clock;
  // H2D: 256 MiB from pinned memory, best of 3 (upload() returns when the copy is done).
  const std::size_t bytes = std::size_t{256} << 20;
  HostBuffer<float> host(bytes / sizeof(float), HostMemory::Pinned);
  host.zero();
  fft::FftBuffer dev = planner->allocate(bytes);
  double best = 1e30;
  for (int i = 0; i < 4; ++i) {
    const auto t0 = Clock::now();
    dev.upload(host.data(), bytes);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (i > 0 && s < best) best = s; // the first copy warms up the path
  }
  f.h2d_gbs = static_cast<double>(bytes) / best / 1e9;
  const double raw = static_cast<double>(size.x) * static_cast<double>(size.y) * size.frames * sizeof(float);
  f.upload_ms = raw / (f.h2d_gbs * 1e9) * 1e3;
  // One R2C of a full frame, best of 5 after a warm-up.
  const fft::FftPlan plan = planner->plan(fft::FftSpec::r2c(Shape::image(size.x, size.y)));
  fft::FftBuffer in = planner->allocate(plan.spec().input_bytes()), out = planner->allocate(plan.spec().output_bytes());
  in.zero();
  best = 1e30;
  for (int i = 0; i < 6; ++i) {
    const auto t0 = Clock::now();
    plan.execute(in.data(), out.data());
    planner->synchronize();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (i > 0 && s < best) best = s;
  }
  f.fft_ms = best * 1e3;
  f.floor_ms = f.upload_ms + size.frames * f.fft_ms;
  f.file_floor_ms = f.upload_ms / sizeof(float) + size.frames * f.fft_ms; // the bench's movies are mode 0
  return f;
}

} // namespace frost::bench
