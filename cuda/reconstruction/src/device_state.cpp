#include "device_state.hpp"

#include "frost/cuda/check.hpp"

namespace frost::cuda::detail {

DeviceState::DeviceState(int device, const AccumulatorSpec& spec) : id(device) {
  DeviceGuard guard(id);
  cudaDeviceProp p{};
  FROST_CUDA_CHECK(cudaGetDeviceProperties(&p, id));
  name = p.name;
  const auto& values = spec.table.values();
  table = DeviceBuffer<float>(values.size());
  FROST_CUDA_CHECK(cudaMemcpy(table.data(), values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice));
  if (spec.separable()) {
    const auto& rows = spec.windows.values();
    windows = DeviceBuffer<float>(rows.size());
    FROST_CUDA_CHECK(cudaMemcpy(windows.data(), rows.data(), rows.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  if (spec.settings.fast && !spec.taps.empty()) {
    taps = DeviceBuffer<recon::BlobTap>(spec.taps.size());
    FROST_CUDA_CHECK(cudaMemcpy(taps.data(), spec.taps.data(), spec.taps.size() * sizeof(recon::BlobTap),
                                cudaMemcpyHostToDevice));
  }
  const std::size_t voxels = static_cast<std::size_t>(spec.layout.cube_voxels());
  for (int i = 0; i < spec.grids; ++i) {
    g.emplace_back(2 * voxels);
    w.emplace_back(voxels);
    folded.emplace_back();
    FROST_CUDA_CHECK(cudaMemset(g.back().data(), 0, g.back().bytes()));
    FROST_CUDA_CHECK(cudaMemset(w.back().data(), 0, w.back().bytes()));
  }
  // The lanes' streams are non-blocking: they do not wait for the legacy stream, so the
  // zeroing and the table upload must be complete before any kernel starts.
  FROST_CUDA_CHECK(cudaDeviceSynchronize());
}

const DeviceBuffer<BrickTask>& DeviceState::brick_tasks(const recon::GridLayout& layout, int space_count, float slab,
                                                        float max_radius, int target_hits) {
  const auto key = std::make_pair(space_count, max_radius);
  auto it = tasks.find(key);
  if (it == tasks.end()) {
    const std::vector<BrickTask> list = make_brick_tasks(layout.M, space_count, slab, max_radius, target_hits);
    DeviceBuffer<BrickTask> buf(list.size());
    if (!list.empty())
      FROST_CUDA_CHECK(cudaMemcpy(buf.data(), list.data(), list.size() * sizeof(BrickTask), cudaMemcpyHostToDevice));
    it = tasks.emplace(key, std::move(buf)).first;
  }
  return it->second;
}

void DeviceState::release_float_cube(int grid) {
  DeviceGuard guard(id);
  g[static_cast<std::size_t>(grid)] = DeviceBuffer<float>();
  w[static_cast<std::size_t>(grid)] = DeviceBuffer<float>();
}

void DeviceState::release_cube(int grid) {
  release_float_cube(grid);
  DeviceGuard guard(id);
  folded[static_cast<std::size_t>(grid)] = DeviceBuffer<double>();
}

void DeviceState::release() noexcept {
  table = DeviceBuffer<float>();
  windows = DeviceBuffer<float>();
  taps = DeviceBuffer<recon::BlobTap>();
  tasks.clear();
  g.clear();
  w.clear();
  folded.clear();
}

} // namespace frost::cuda::detail
