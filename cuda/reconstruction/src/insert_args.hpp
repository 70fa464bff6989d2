#pragma once
// The insertion kernel's arguments for one batch on one lane: the lane's buffers, the device's
// table and cubes, the plane extents of the column kernel and the block list of the brick kernel.
#include <mutex>

#include "accumulator_spec.hpp"
#include "device_state.hpp"
#include "insert_kernel.hpp"
#include "lane.hpp"

namespace frost::cuda::detail {

/// `tasks_mutex` guards the brick block lists of every device (DeviceState::tasks); the caller
/// has the lane's device current.
InsertArgs make_insert_args(const AccumulatorSpec& spec, Lane& lane, DeviceState& device, int grid,
                            const recon::SampleBatch& batch, std::mutex& tasks_mutex);

} // namespace frost::cuda::detail
