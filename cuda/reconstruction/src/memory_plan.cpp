#include "memory_plan.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "frost/core/error.hpp"
#include "frost/cuda/check.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "frost/cuda/reconstruction.hpp"

namespace frost::cuda {

std::size_t cuda_cube_bytes(const recon::GridLayout& layout, int grids) {
  return static_cast<std::size_t>(grids) * static_cast<std::size_t>(layout.cube_voxels()) *
         (2 * sizeof(float) + sizeof(float));
}

} // namespace frost::cuda

namespace frost::cuda::detail {

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

void check_device_list(const std::vector<int>& devices) {
  for (std::size_t i = 0; i < devices.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (devices[i] == devices[j])
        FROST_THROW(ExitCode::Usage, "CUDA accumulator: device " + std::to_string(devices[i]) + " listed twice");

  int count = 0;
  const cudaError_t st = cudaGetDeviceCount(&count);
  if (st != cudaSuccess) {
    cudaGetLastError();
    FROST_THROW(ExitCode::Device, std::string("CUDA reconstruction: no usable CUDA device (") +
                                      cudaGetErrorString(st) + "); use --device cpu");
  }
  for (int id : devices)
    if (id < 0 || id >= count)
      FROST_THROW(ExitCode::Device, "CUDA reconstruction: device " + std::to_string(id) + " requested but " +
                                        std::to_string(count) + " CUDA device(s) are visible");
}

void check_cubes_fit(const std::vector<int>& devices, const recon::GridLayout& layout, int grids,
                     std::size_t table_bytes) {
  const std::size_t cube = cuda_cube_bytes(layout, grids);
  for (int id : devices) {
    DeviceGuard guard(id);
    const auto [free_b, total_b] = memory_info();
    const std::size_t need = cube + table_bytes + kReserveBytes;
    if (need > free_b) {
      cudaDeviceProp p{};
      FROST_CUDA_CHECK(cudaGetDeviceProperties(&p, id));
      std::ostringstream os;
      os << "CUDA device " << id << " (" << p.name << "): the accumulation grid needs " << gib(double(cube)) << " ("
         << grids << " x " << layout.side() << "^3 voxels x 12 bytes, N " << layout.box << ", P " << layout.padded
         << ", M " << layout.M << ") plus " << gib(double(kReserveBytes + table_bytes))
         << " for batches and tables, but only " << gib(double(free_b)) << " of " << gib(double(total_b))
         << " are free; use less --padding, a lower --max_resolution, or a GPU with more memory";
      FROST_THROW(ExitCode::Device, os.str());
    }
  }
}

bool periodic_folds_fit(const std::vector<int>& devices, const recon::GridLayout& layout, int grids,
                        std::size_t table_bytes) {
  const std::size_t need = cuda_cube_bytes(layout, grids) + table_bytes + kReserveBytes +
                           static_cast<std::size_t>(grids) * static_cast<std::size_t>(layout.half_voxels()) * 3 *
                               sizeof(double);
  for (int id : devices) {
    DeviceGuard guard(id);
    if (need > memory_info().first) return false;
  }
  return true;
}

std::size_t half_grid_bytes(const recon::GridLayout& layout) {
  return static_cast<std::size_t>(layout.half_voxels()) * 3 * sizeof(float);
}

bool half_grids_fit(const std::vector<int>& devices, const recon::GridLayout& layout) {
  for (int id : devices) {
    DeviceGuard guard(id);
    const auto [free_b, total_b] = memory_info();
    (void)total_b;
    if (half_grid_bytes(layout) + kReserveBytes > free_b) return false;
  }
  return true;
}

int fold_chunk_planes(const recon::GridLayout& layout) {
  const int side = layout.side();
  const std::size_t plane = static_cast<std::size_t>(layout.half_x()) * static_cast<std::size_t>(side);
  const std::size_t plane_bytes = plane * 3 * sizeof(float);
  const auto [free_b, total_b] = memory_info();
  (void)total_b;
  const std::size_t budget = std::min(kFoldChunkBytes, free_b / 4);
  return static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(budget / plane_bytes, side)));
}

void check_batch_fits(int device, std::size_t bytes, int capacity) {
  const auto [free_b, total_b] = memory_info();
  if (bytes > free_b)
    FROST_THROW(ExitCode::Device, "CUDA device " + std::to_string(device) + ": a batch buffer of " +
                                      gib(double(bytes)) + " (" + std::to_string(capacity) +
                                      " images) does not fit in the " + gib(double(free_b)) + " free of " +
                                      gib(double(total_b)) + "; use a smaller --bufferSize or fewer --streams");
}

void check_fft_batch_fits(int device, std::size_t bytes, int capacity, int P) {
  const auto [free_b, total_b] = memory_info();
  if (bytes > free_b)
    FROST_THROW(ExitCode::Device, "CUDA device " + std::to_string(device) + ": the FFT buffers of a batch need " +
                                      gib(double(bytes)) + " (" + std::to_string(capacity) + " images of " +
                                      std::to_string(P) + "^2) but only " + gib(double(free_b)) + " of " +
                                      gib(double(total_b)) +
                                      " are free; use a smaller --bufferSize or fewer --streams");
}

} // namespace frost::cuda::detail
