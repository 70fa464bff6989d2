#include "frost/tuning/geometry.hpp"

namespace frost::tuning {

namespace {

std::string dims(const Dim3& d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

} // namespace

std::string geometry_problem(const LaunchGeometry& g, const DeviceLimits& limits) {
  if (g.grid.x < 1 || g.grid.y < 1 || g.grid.z < 1) return "empty grid " + dims(g.grid);
  if (g.block.x < 1 || g.block.y < 1 || g.block.z < 1) return "empty block " + dims(g.block);
  if (g.grid.x > limits.max_grid_x || g.grid.y > limits.max_grid_y || g.grid.z > limits.max_grid_z)
    return "grid " + dims(g.grid) + " exceeds the device's grid limits";
  if (g.block.x > limits.max_block_x || g.block.y > limits.max_block_y || g.block.z > limits.max_block_z)
    return "block " + dims(g.block) + " exceeds the device's block limits";
  if (g.block.x * g.block.y * g.block.z > limits.max_threads_per_block)
    return "block " + dims(g.block) + " has more than " + std::to_string(limits.max_threads_per_block) + " threads";
  if (g.dynamic_shared_bytes < 0 || g.dynamic_shared_bytes > limits.max_shared_bytes_per_block)
    return std::to_string(g.dynamic_shared_bytes) + " bytes of shared memory exceed the per-block limit of " +
           std::to_string(limits.max_shared_bytes_per_block);
  return {};
}

} // namespace frost::tuning
