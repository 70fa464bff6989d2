#pragma once
// Host wall-clock measures of the CUDA accumulator, for its stats (cuda_insert_stats).
#include <chrono>

namespace frost::cuda::detail {

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// Where finish() spends its time (CudaInsertStats::download_s and host_finish_s).
struct FinishTimes {
  double download_s = 0;    ///< stream synchronisation, device fold (+ convolution) and downloads
  double host_finish_s = 0; ///< adding the downloaded half grids into the host's (double)
};

} // namespace frost::cuda::detail
