#include "dynamic_launch.hpp"

#include <optional>

#include "frost/core/log.hpp"
#include "frost/cuda/check.hpp"
#include "frost/tuning/cache.hpp"

namespace frost::cuda::detail {
namespace {

/// Launch errors that only mean "this configuration cannot run here" (not sticky).
bool configuration_refused(cudaError_t status) {
  return status == cudaErrorLaunchOutOfResources || status == cudaErrorInvalidConfiguration ||
         status == cudaErrorInvalidValue;
}

} // namespace

LaunchTurn take_launch_turn(DeviceTuning* tuning, const InsertLaunchConfig& fixed, int spaces) {
  LaunchTurn turn;
  turn.launch = fixed;
  turn.tuning = tuning;
  if (!tuning) return turn;
  bool tuning_now = false;
  {
    std::lock_guard<std::mutex> lock(tuning->mutex);
    tuning_now = tuning->tuner->tuning();
    turn.step = tuning->tuner->next(spaces == tuning->comparable_spaces);
  }
  turn.launch = tuning->launches[turn.step.config];
  if (turn.step.timed) turn.exclusive = std::unique_lock<std::shared_mutex>(tuning->serial);
  else if (tuning_now) turn.shared = std::shared_lock<std::shared_mutex>(tuning->serial);
  return turn;
}

void launch_timed(const LaunchTurn& turn, const InsertArgs& args, Lane& lane, int k) {
  DeviceTuning& T = *turn.tuning;
  const cudaStream_t s = lane.stream.get();
  std::optional<double> ms;
  try {
    launch_insert(turn.launch, args, s);
    lane.stop[k].record(s);
    lane.stop[k].synchronize();
    ms = lane.stop[k].elapsed_ms_since(lane.start[k]);
    lane.counters.kernel_ms += *ms;
  } catch (const CudaError& e) {
    if (!configuration_refused(e.status())) throw;
    cudaGetLastError();
  }
  std::size_t fallback = 0;
  {
    std::lock_guard<std::mutex> lock(T.mutex);
    T.tuner->report(turn.step, ms);
    fallback = T.tuner->current();
  }
  if (!ms) {
    launch_insert(T.launches[fallback], args, s);
    lane.stop[k].record(s);
    lane.pending[k] = true;
  }
}

void finish_tuning(std::vector<std::unique_ptr<DeviceTuning>>& tuning, std::string& summary) {
  for (auto& T : tuning) {
    const std::string line = T->tuner->summary();
    log_info("tuning " + line);
    summary += (summary.empty() ? "" : "\n") + line;
    if (auto record = T->tuner->record()) {
      record->gpu_uuid = T->gpu_uuid;
      tuning::TuningCache(T->cache_dir).append(*record);
    }
  }
  tuning.clear();
}

} // namespace frost::cuda::detail
