#include "plane_download.hpp"

#include <algorithm>
#include <cstdint>

#include "frost/core/error.hpp"
#include "frost/cuda/check.hpp"
#include "frost/fft/spec.hpp"
#include "memory_plan.hpp"

namespace frost::cuda::detail {

void PlaneDownload::to_host(int device, const recon::GridLayout& layout, recon::HalfGrid& out, const Produce& produce,
                            FinishTimes& times) {
  DeviceGuard guard(device);
  auto t0 = Clock::now();
  const int side = layout.side();
  const std::size_t plane = static_cast<std::size_t>(layout.half_x()) * static_cast<std::size_t>(side);
  const int planes = fold_chunk_planes(layout);
  const std::size_t chunk = static_cast<std::size_t>(planes) * plane * 3; // floats per buffer
  DeviceBuffer<float> dev[2] = {DeviceBuffer<float>(chunk), DeviceBuffer<float>(chunk)};
  for (auto& h : staging_)
    if (h.size() < chunk) h = HostBuffer<float>(chunk, HostMemory::Pinned);
  Stream stream;
  Event done[2] = {Event(cudaEventDisableTiming | cudaEventBlockingSync),
                   Event(cudaEventDisableTiming | cudaEventBlockingSync)};
  const int chunks = (side + planes - 1) / planes;
  auto enqueue = [&](int k) {
    const int z0 = k * planes, nz = std::min(planes, side - z0);
    produce(z0, nz, dev[k % 2].data(), stream.get());
    const std::size_t floats = static_cast<std::size_t>(nz) * plane * 3;
    FROST_CUDA_CHECK(cudaMemcpyAsync(staging_[k % 2].data(), dev[k % 2].data(), floats * sizeof(float),
                                     cudaMemcpyDeviceToHost, stream.get()));
    done[k % 2].record(stream.get());
  };
  enqueue(0);
  if (chunks > 1) enqueue(1);
  times.download_s += seconds_since(t0);
  for (int k = 0; k < chunks; ++k) {
    t0 = Clock::now();
    done[k % 2].synchronize();
    times.download_s += seconds_since(t0);
    t0 = Clock::now();
    const int z0 = k * planes, nz = std::min(planes, side - z0);
    const std::int64_t n = static_cast<std::int64_t>(nz) * static_cast<std::int64_t>(plane);
    const std::int64_t o0 = static_cast<std::int64_t>(z0) * static_cast<std::int64_t>(plane);
    const float* src = staging_[k % 2].data();
    double* dst = out.data.data();
    double* dst_w = out.weight.data();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      dst[2 * (o0 + i)] += src[2 * i];
      dst[2 * (o0 + i) + 1] += src[2 * i + 1];
      dst_w[o0 + i] += src[2 * n + i];
    }
    times.host_finish_s += seconds_since(t0);
    t0 = Clock::now();
    if (k + 2 < chunks) enqueue(k + 2); // the host buffer k % 2 is free again
    times.download_s += seconds_since(t0);
  }
}

void PlaneDownload::release() {
  staging_[0].reset();
  staging_[1].reset();
}

void download_cube(const DeviceState& device, int g, const recon::GridLayout& layout, recon::FullGrid& into) {
  DeviceGuard guard(device.id);
  const std::size_t voxels = static_cast<std::size_t>(layout.cube_voxels());
  static_assert(sizeof(fft::Complex) == 2 * sizeof(float), "complex layout");
  FROST_EXPECTS(static_cast<std::size_t>(into.data.size()) == voxels, "host grid size");
  FROST_CUDA_CHECK(cudaMemcpy(reinterpret_cast<float*>(into.data.data()), device.g[g].data(),
                              2 * voxels * sizeof(float), cudaMemcpyDeviceToHost));
  FROST_CUDA_CHECK(
      cudaMemcpy(into.weight.data(), device.w[g].data(), voxels * sizeof(float), cudaMemcpyDeviceToHost));
}

} // namespace frost::cuda::detail
