#include "insert_args.hpp"

#include <algorithm>
#include <cmath>

namespace frost::cuda::detail {

InsertArgs make_insert_args(const AccumulatorSpec& spec, Lane& lane, DeviceState& device, int grid,
                            const recon::SampleBatch& batch, std::mutex& tasks_mutex) {
  const recon::GridLayout& layout = spec.layout;
  InsertArgs a;
  a.spaces = lane.spaces.data();
  a.space_count = batch.space_count();
  a.samples.spectra = lane.spectra.data();
  a.samples.gw = batch.has_gw() ? lane.gw.data() : nullptr;
  a.samples.fx = layout.fx;
  a.samples.fy = layout.fy;
  a.samples.M = layout.M;
  a.fast = spec.settings.fast;
  a.separable = spec.settings.kernel == recon::Kernel::Separable && !spec.settings.fast;
  // As the CPU inserter: the table in fast mode or with --interp lookup (insert_batch_cpu).
  a.weight = spec.settings.interp == recon::Interpolation::Lookup || spec.settings.fast ? WeightMode::Table
                                                                                         : WeightMode::Dynamic;
  a.radius = static_cast<float>(spec.settings.blob.radius);
  a.table = spec.table.view();
  a.table.data = device.table.data();
  a.dynamic = spec.dynamic;
  if (a.separable) {
    a.windows = recon::window_table_view(spec.windows);
    a.windows.data = device.windows.data();
  }
  a.g = device.g[grid].data();
  a.w = device.w[grid].data();
  a.side = layout.side();
  // Column: the grid covers the largest plane of the batch (launch shape computed per batch).
  const recon::TraverseSpace* ts = batch.spaces();
  float max_d2 = 0;
  for (int i = 0; i < a.space_count; ++i) {
    a.extent_a = std::max(a.extent_a, ts[i].columns_a());
    a.extent_b = std::max(a.extent_b, ts[i].columns_b());
    max_d2 = std::max(max_d2, ts[i].max_distance_sqr);
  }
  if (spec.launch.kernel == InsertKernel::Brick) {
    // The slab a space touches: the blob radius, or in fast mode the half voxel by which the
    // voxel a column selects can be off the slice (|c - hit| <= 1/2 along the column, so its
    // distance to the slice is at most |n_dir| / 2 <= 1/2).
    a.slab = spec.settings.fast ? 0.5f : a.radius;
    const float max_radius = std::sqrt(max_d2);
    std::lock_guard<std::mutex> lock(tasks_mutex);
    const DeviceBuffer<BrickTask>& tasks =
        device.brick_tasks(layout, a.space_count, a.slab, max_radius, spec.launch.brick_target_hits);
    a.tasks = tasks.data();
    a.task_count = static_cast<int>(tasks.size());
  }
  return a;
}

} // namespace frost::cuda::detail
