// make_planner / shared_planner: picks the backend at run time (one binary serves both).
#include <map>
#include <mutex>
#include <utility>

#include "cpu_planner.hpp"
#include "frost/fft/backend.hpp"
#include "frost/fft/planner.hpp"

namespace frost::fft {

std::shared_ptr<Planner> make_planner(Backend backend, int device) {
  if (backend == Backend::Cpu) return detail::make_cpu_planner();
  return detail::make_cuda_planner(device);
}

std::shared_ptr<Planner> shared_planner(Backend backend, int device) {
  if (backend == Backend::Cpu) device = -1;
  // Never destroyed: cached CUDA plans must not be released after the CUDA runtime has shut
  // down in static destruction, so the process-wide planners live until exit.
  static auto* mutex = new std::mutex;
  static auto* planners = new std::map<std::pair<Backend, int>, std::shared_ptr<Planner>>;
  std::lock_guard<std::mutex> lock(*mutex);
  auto& slot = (*planners)[{backend, device}];
  if (!slot) slot = make_planner(backend, device);
  return slot;
}

} // namespace frost::fft
