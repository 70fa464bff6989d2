#pragma once
// One device of the CUDA accumulator: its cubes (per grid), the blob table and convolution taps,
// and the brick kernel's block lists (per batch size).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "accumulator_spec.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "insert_kernel.hpp"

namespace frost::cuda::detail {

struct DeviceState {
  /// Uploads the blob table (and in fast mode the taps) to device `id` and makes its zeroed
  /// cubes; everything is complete on return.
  DeviceState(int id, const AccumulatorSpec& spec);

  int id = 0;
  std::string name;
  DeviceBuffer<float> table;
  DeviceBuffer<float> windows;           ///< the separable kernel's window factors (WindowTable rows)
  DeviceBuffer<recon::BlobTap> taps;     ///< fast-mode convolution taps
  std::vector<DeviceBuffer<float>> g, w; ///< per grid: G (interleaved re, im) and W
  /// Per grid: the double half grid the cube is folded into every so many spaces
  /// (docs/reconstruct_fourier.md#long-sums); empty until the first periodic fold.
  std::vector<DeviceBuffer<double>> folded;
  /// Brick launches: block lists keyed by (space count, largest frequency radius); never
  /// changed once made.
  std::map<std::pair<int, float>, DeviceBuffer<BrickTask>> tasks;

  /// The block list of a brick launch (make_brick_tasks), made and uploaded on first use. The
  /// caller holds the lock that guards `tasks` and has this device current.
  const DeviceBuffer<BrickTask>& brick_tasks(const recon::GridLayout& layout, int space_count, float slab,
                                             float max_radius, int target_hits);
  /// Frees grid g's float cubes (once folded).
  void release_float_cube(int g);
  /// Frees grid g's float cubes and its double half grid.
  void release_cube(int g);
  /// Frees every buffer; the caller has this device current. Never throws.
  void release() noexcept;
};

} // namespace frost::cuda::detail
