#pragma once
// The CUDA accumulator (docs/reconstruct_fourier.md#the-cuda-backend): lanes = devices x streams,
// one stream and one batch's device buffers per lane (lane.hpp), one set of cubes per device
// (device_state.hpp); finish() folds every cube on its device and adds the half grids into the
// host's (device_fold.hpp, plane_download.hpp). The memory plan is memory_plan.hpp, dynamic
// launch tuning dynamic_launch.hpp.
#include <memory>
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "accumulator_spec.hpp"
#include "device_state.hpp"
#include "dynamic_launch.hpp"
#include "frost/reconstruction/accumulator.hpp"
#include "host_timing.hpp"
#include "insert_kernel.hpp"
#include "lane.hpp"
#include "plane_download.hpp"

namespace frost::cuda::detail {

class CudaAccumulator final : public recon::GridAccumulator {
public:
  /// Checks the arguments and the memory plan of every device, then makes the cubes and lanes.
  CudaAccumulator(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout, int grids,
                  const std::vector<int>& devices, int streams, const InsertLaunchConfig& launch);
  ~CudaAccumulator() override;

  int lanes() const override { return static_cast<int>(lanes_.size()); }
  void insert(const recon::SampleBatch& batch, int grid, int lane) override;
  void finish(std::vector<recon::HalfGrid>& out) override;
  /// With a grid symmetry: each device folds its cube into a device half grid and symmetrises it
  /// on the way to the host (the symmetrisation is linear, so summing the devices' symmetrised
  /// grids equals symmetrising their sum). Where a device half grid does not fit, the base
  /// class's path: fold to the host, then symmetrise() the host grids.
  void finish_symmetrised(std::vector<recon::HalfGrid>& out, const std::vector<recon::Rotation9<double>>& rotations,
                          double max_r2, double* symmetrise_s) override;
  std::string describe() const override;
  HostMemory host_memory() const override { return HostMemory::Pinned; }
  bool fft_on_device() const override { return spec_.launch.fft_on_device; }
  void symmetrise(recon::HalfGrid& grid, const std::vector<recon::Rotation9<double>>& rotations,
                  double max_r2) override;

  /// make_tuned_cuda_accumulator: one tuner per device (in devices order), before any insert().
  void enable_tuning(std::vector<std::unique_ptr<DeviceTuning>> per_device);
  int device_id(std::size_t d) const { return devices_[d].id; }
  std::size_t device_count() const { return devices_.size(); }

  CudaInsertStats stats() const;
  /// Test hook (cuda_download_cube): grid g's cube summed over the devices, before finish().
  recon::FullGrid download_cube(int g);

  // The parts a StagedBatch drives directly.
  const AccumulatorSpec& spec() const { return spec_; }
  Lane& lane(int l) { return *lanes_[static_cast<std::size_t>(l)]; }
  DeviceState& device_of(const Lane& lane) { return devices_[static_cast<std::size_t>(lane.device)]; }
  InsertArgs insert_args(Lane& lane, int grid, const recon::SampleBatch& batch);

private:
  /// Waits for every lane's work and collects its kernel times.
  void synchronize_lanes();
  /// Waits for the kernels of the other lanes on `lane`'s device (their threads are blocked on
  /// the tuning lock, so nothing new is enqueued meanwhile).
  void drain_other_lanes(const Lane& lane);
  /// Checks `out`, waits for every lane and frees the batches' device buffers (they make room
  /// for the finish's buffers). Once per accumulator.
  void release_batches(const std::vector<recon::HalfGrid>& out);
  /// Counts `spaces` into grid g of device d; true when that cube is due for a periodic fold.
  bool count_spaces(int d, int g, std::int64_t spaces);
  /// The periodic fold of grid g on device d (docs/reconstruct_fourier.md#long-sums): holds back
  /// that device's launches, waits for its lanes and folds the cube into its double half grid.
  void fold_periodically(int d, int g);
  void end_finish();
  std::vector<int> device_ids() const;

  AccumulatorSpec spec_;
  /// Per device (index into devices_) when the launch is tuned during the run; else empty.
  std::vector<std::unique_ptr<DeviceTuning>> tuning_;
  std::string tuning_summary_; ///< finish_tuning(): each device tuner's summary line
  std::mutex tasks_mutex_;     ///< guards every device's brick block lists
  PlaneDownload download_;
  std::vector<DeviceState> devices_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  /// Per device: insert() enqueues its launch holding this shared, a periodic fold exclusive.
  std::vector<std::unique_ptr<std::shared_mutex>> launch_locks_;
  std::mutex fold_count_mutex_;          ///< guards since_fold_ and folds_enabled_
  std::vector<std::int64_t> since_fold_; ///< per device x grid: spaces since the cube's last fold
  bool folds_enabled_ = true;            ///< false when the double half grids do not fit
  std::int64_t periodic_folds_ = 0;
  bool finished_ = false;
  bool batches_released_ = false;
  FinishTimes times_;
};

} // namespace frost::cuda::detail
