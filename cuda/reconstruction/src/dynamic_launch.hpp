#pragma once
// Dynamic tuning of the insertion launch during a run (docs/tune.md#dynamic-tuning-in-the-main-loop):
// per device a tuner picks each batch's launch; a timed launch runs alone on its device
// (docs/tune.md#dynamic-tuning-in-a-run).
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "frost/cuda/reconstruction.hpp"
#include "frost/tuning/dynamic_tuner.hpp"
#include "insert_kernel.hpp"
#include "lane.hpp"

namespace frost::cuda::detail {

/// The tuner of one device.
struct DeviceTuning {
  std::unique_ptr<tuning::DynamicTuner> tuner;
  std::vector<InsertLaunchConfig> launches; ///< per configuration of the tuner's space
  int comparable_spaces = 0;                ///< the space count of the batches a phase times
  std::string cache_dir, gpu_uuid;          ///< where finish() appends the record, and the device's UUID
  std::mutex mutex;                         ///< guards tuner (lanes call from their own threads)
  /// While the tuner tunes, lanes enqueue under a shared lock and a timed launch under the
  /// exclusive one, after draining the device's other lanes: it runs alone (isolation).
  std::shared_mutex serial;
};

/// The launch of one insert() and, while the device's tuner tunes, the lock it holds: shared to
/// enqueue beside the device's other lanes, exclusive for a timed launch.
struct LaunchTurn {
  InsertLaunchConfig launch;
  DeviceTuning* tuning = nullptr; ///< null when the launch is fixed
  tuning::DynamicTuner::Step step;
  std::shared_lock<std::shared_mutex> shared;
  std::unique_lock<std::shared_mutex> exclusive;
};

/// `fixed` when `tuning` is null, else the tuner's next step for a batch of `spaces` spaces.
LaunchTurn take_launch_turn(DeviceTuning* tuning, const InsertLaunchConfig& fixed, int spaces);

/// A timed step: nothing else runs on the device (the caller holds the exclusive lock, drained
/// the other lanes and recorded lane.start[k]). A configuration the device refuses is reported
/// invalid and the batch is inserted with the tuner's current configuration instead.
void launch_timed(const LaunchTurn& turn, const InsertArgs& args, Lane& lane, int k);

/// Once, after every lane finished: each device's tuner logs what it did, adds its summary line
/// to `summary`, and a tuning phase's record goes to the cache. Empties `tuning`.
void finish_tuning(std::vector<std::unique_ptr<DeviceTuning>>& tuning, std::string& summary);

} // namespace frost::cuda::detail
