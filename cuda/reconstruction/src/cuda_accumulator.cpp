#include "cuda_accumulator.hpp"

#include <sstream>
#include <utility>

#include "device_fold.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "insert_args.hpp"
#include "memory_plan.hpp"

namespace frost::cuda::detail {

CudaAccumulator::CudaAccumulator(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                                 int grids, const std::vector<int>& devices, int streams,
                                 const InsertLaunchConfig& launch)
    : spec_(settings, layout, grids, streams, launch) {
  if (grids < 1) FROST_THROW(ExitCode::Usage, "CUDA accumulator: grids must be >= 1");
  if (devices.empty()) FROST_THROW(ExitCode::Usage, "CUDA accumulator: no device given");
  if (streams < 1) FROST_THROW(ExitCode::Usage, "CUDA accumulator: streams per device must be >= 1");
  validate(spec_.launch);
  check_device_list(devices);
  // Plan first (docs/reconstruct_fourier.md#memory): every device must hold the cubes before
  // anything is allocated.
  const std::size_t table_bytes = spec_.table.values().size() * sizeof(float);
  check_cubes_fit(devices, spec_.layout, spec_.grids, table_bytes);

  folds_enabled_ = periodic_folds_fit(devices, spec_.layout, spec_.grids, table_bytes);
  if (!folds_enabled_)
    log_detail("CUDA accumulator: no room for the double half grids of the periodic fold; the cubes sum in float "
               "until the finish");
  for (int id : devices) {
    devices_.emplace_back(id, spec_);
    launch_locks_.push_back(std::make_unique<std::shared_mutex>());
  }
  since_fold_.assign(devices_.size() * static_cast<std::size_t>(spec_.grids), 0);
  for (std::size_t d = 0; d < devices_.size(); ++d)
    for (int s = 0; s < spec_.streams; ++s) {
      DeviceGuard guard(devices_[d].id); // stream and events belong to the current device
      lanes_.push_back(std::make_unique<Lane>(static_cast<int>(d)));
    }
}

CudaAccumulator::~CudaAccumulator() {
  // Never throws. Kernels may still read the lanes' buffers: let them finish, then release
  // every stream, event and buffer with its own device current.
  int previous = 0;
  const bool restore = cudaGetDevice(&previous) == cudaSuccess;
  for (auto& lane : lanes_) {
    if (cudaSetDevice(devices_[lane->device].id) == cudaSuccess) cudaStreamSynchronize(lane->stream.get());
    lane.reset();
  }
  for (auto& d : devices_) {
    if (cudaSetDevice(d.id) != cudaSuccess) continue;
    d.release();
  }
  if (restore) cudaSetDevice(previous);
  cudaGetLastError();
}

void CudaAccumulator::enable_tuning(std::vector<std::unique_ptr<DeviceTuning>> per_device) {
  FROST_EXPECTS(per_device.size() == devices_.size(), "one tuner per device");
  tuning_ = std::move(per_device);
}

InsertArgs CudaAccumulator::insert_args(Lane& lane, int grid, const recon::SampleBatch& batch) {
  return make_insert_args(spec_, lane, device_of(lane), grid, batch, tasks_mutex_);
}

void CudaAccumulator::insert(const recon::SampleBatch& batch, int grid, int lane) {
  if (finished_) FROST_THROW(ExitCode::Runtime, "CUDA accumulator: insert() after finish()");
  FROST_EXPECTS(grid >= 0 && grid < spec_.grids, "grid >= 0 && grid < grids");
  FROST_EXPECTS(lane >= 0 && lane < lanes(), "lane >= 0 && lane < lanes()");
  const recon::GridLayout& bl = batch.layout();
  const recon::GridLayout& layout = spec_.layout;
  FROST_EXPECTS(bl.M == layout.M && bl.fx == layout.fx && bl.fy == layout.fy, "batch layout matches the grid");
  if (batch.size() == 0) return;
  Lane& L = this->lane(lane);
  DeviceState& D = device_of(L);
  DeviceGuard guard(D.id);
  L.reserve(batch, layout, D.id);
  const cudaStream_t s = L.stream.get();
  const int spaces = batch.space_count();
  std::shared_lock<std::shared_mutex> launching(*launch_locks_[static_cast<std::size_t>(L.device)]);

  // Which launch (the fixed one, or the device tuner's step) and, during tuning, the locks.
  DeviceTuning* tuning = tuning_.empty() ? nullptr : tuning_[static_cast<std::size_t>(L.device)].get();
  LaunchTurn turn = take_launch_turn(tuning, spec_.launch, spaces);
  // Ordered after this lane's previous kernel, which reads the same buffers.
  const double bytes = L.upload(batch);
  if (batch.holds_images()) L.prepare_images(batch.size(), batch.has_gw(), layout);

  const InsertArgs args = insert_args(L, grid, batch);
  const int k = L.current;
  if (turn.step.timed) drain_other_lanes(L);
  L.start[k].record(s);
  if (turn.step.timed) {
    launch_timed(turn, args, L, k);
  } else {
    launch_insert(turn.launch, args, s);
    L.stop[k].record(s);
    L.pending[k] = true;
  }
  L.current = 1 - k;
  if (turn.shared) turn.shared.unlock();
  launching.unlock();

  // The loader may refill the batch once the copies are done; the kernel keeps running.
  L.wait_for_copies();
  // The copies followed the previous launch on this stream, so that launch is complete.
  L.harvest(1 - k);

  ++L.counters.launches;
  L.counters.images += batch.size();
  L.counters.spaces += spaces;
  L.counters.upload_bytes += bytes;
  if (count_spaces(L.device, grid, spaces)) fold_periodically(L.device, grid);
}

bool CudaAccumulator::count_spaces(int d, int g, std::int64_t spaces) {
  if (fold_period_ <= 0) return false;
  std::lock_guard<std::mutex> lock(fold_count_mutex_);
  if (!folds_enabled_) return false;
  std::int64_t& n = since_fold_[static_cast<std::size_t>(d * spec_.grids + g)];
  n += spaces;
  return n >= fold_period_;
}

void CudaAccumulator::fold_periodically(int d, int g) {
  std::unique_lock<std::shared_mutex> exclusive(*launch_locks_[static_cast<std::size_t>(d)]);
  {
    std::lock_guard<std::mutex> lock(fold_count_mutex_);
    std::int64_t& n = since_fold_[static_cast<std::size_t>(d * spec_.grids + g)];
    if (n < fold_period_) return; // another lane of this device folded it meanwhile
    n = 0;
  }
  DeviceState& D = devices_[static_cast<std::size_t>(d)];
  DeviceGuard guard(D.id);
  for (auto& lane : lanes_)
    if (lane->device == d) lane->stream.synchronize(); // every kernel that adds into the cube is done
  const bool first = D.folded[static_cast<std::size_t>(g)].size() == 0;
  try {
    fold_into_device_half(D, g, spec_);
  } catch (const Error& e) {
    if (!first || D.folded[static_cast<std::size_t>(g)].size() != 0) throw;
    // The double half grid could not be allocated (the plan had room; something else took it).
    std::lock_guard<std::mutex> lock(fold_count_mutex_);
    folds_enabled_ = false;
    log_warning(std::string("CUDA accumulator: the periodic fold is off (") + e.what() +
                "); the cubes sum in float until the finish");
    return;
  }
  std::lock_guard<std::mutex> lock(fold_count_mutex_);
  ++periodic_folds_;
}

void CudaAccumulator::finish(std::vector<recon::HalfGrid>& out) {
  release_batches(out);
  // Every device folds its own cube; the host sums the half grids in double.
  for (int g = 0; g < spec_.grids; ++g)
    for (auto& d : devices_) {
      fold_to_host(d, g, spec_, out[static_cast<std::size_t>(g)], download_, times_);
      d.release_cube(g);
    }
  end_finish();
}

void CudaAccumulator::finish_symmetrised(std::vector<recon::HalfGrid>& out,
                                         const std::vector<recon::Rotation9<double>>& rotations, double max_r2,
                                         double* symmetrise_s) {
  if (rotations.size() >= 2) {
    release_batches(out);
    if (half_grids_fit(device_ids(), spec_.layout)) {
      for (int g = 0; g < spec_.grids; ++g)
        for (auto& d : devices_)
          fold_symmetrise_to_host(d, g, spec_, out[static_cast<std::size_t>(g)], rotations, max_r2, symmetrise_s,
                                  download_, times_);
      end_finish();
      return;
    }
    log_info("grid symmetrisation: a device half grid does not fit beside the cube; symmetrising on the host");
  }
  GridAccumulator::finish_symmetrised(out, rotations, max_r2, symmetrise_s);
}

recon::FullGrid CudaAccumulator::download_cube(int g) {
  if (finished_) FROST_THROW(ExitCode::Usage, "CUDA accumulator: cube requested after finish()");
  FROST_EXPECTS(g >= 0 && g < spec_.grids, "grid >= 0 && grid < grids");
  for (const auto& d : devices_)
    if (d.folded[static_cast<std::size_t>(g)].size() != 0)
      FROST_THROW(ExitCode::Usage, "CUDA accumulator: the cube was folded periodically; set a fold period of 0");
  synchronize_lanes();
  recon::FullGrid sum(spec_.layout);
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    if (d == 0) {
      detail::download_cube(devices_[d], g, spec_.layout, sum);
    } else {
      recon::FullGrid part(spec_.layout);
      detail::download_cube(devices_[d], g, spec_.layout, part);
      sum += part;
    }
  }
  return sum;
}

std::string CudaAccumulator::describe() const {
  const InsertLaunchConfig& launch = spec_.launch;
  const recon::ReconstructionSettings& settings = spec_.settings;
  std::ostringstream os;
  os << "cuda:";
  for (std::size_t d = 0; d < devices_.size(); ++d) os << (d ? "," : "") << devices_[d].id;
  os << " " << devices_.front().name << ", " << spec_.streams << (spec_.streams == 1 ? " stream" : " streams")
     << (devices_.size() > 1 ? " per device" : "") << ", " << insert_kernel_name(launch.kernel) << " kernel";
  if (launch.kernel == InsertKernel::Column) os << " (block " << launch.block_x << "x" << launch.block_y << ")";
  os << ", " << (settings.fast ? "fast (nearest)" : settings.interp == recon::Interpolation::Lookup
                                                        ? "precise, table weights"
                                                        : "precise, on-the-fly weights");
  return os.str();
}

void CudaAccumulator::symmetrise(recon::HalfGrid& grid, const std::vector<recon::Rotation9<double>>& rotations,
                                 double max_r2) {
  try {
    symmetrise_half_grid(grid, rotations, max_r2, devices_.front().id);
  } catch (const Error& e) {
    log_warning(std::string("grid symmetrisation on the GPU failed (") + e.what() + "); using the CPU");
    recon::symmetrise_grid(grid, rotations, max_r2);
  }
}

CudaInsertStats CudaAccumulator::stats() const {
  CudaInsertStats s;
  s.valid = true;
  for (const auto& l : lanes_) {
    s.launches += l->counters.launches;
    s.images += l->counters.images;
    s.spaces += l->counters.spaces;
    s.kernel_ms += l->counters.kernel_ms;
    s.upload_bytes += l->counters.upload_bytes;
    s.insert_wait_s += l->counters.wait_s;
  }
  s.periodic_folds = periodic_folds_;
  s.download_s = times_.download_s;
  s.host_finish_s = times_.host_finish_s;
  s.tuning = tuning_summary_;
  return s;
}

void CudaAccumulator::synchronize_lanes() {
  for (auto& lane : lanes_) {
    DeviceGuard guard(devices_[lane->device].id);
    lane->stream.synchronize();
    lane->harvest(0);
    lane->harvest(1);
  }
}

void CudaAccumulator::drain_other_lanes(const Lane& lane) {
  for (auto& other : lanes_)
    if (other.get() != &lane && other->device == lane.device) other->stream.synchronize();
}

void CudaAccumulator::release_batches(const std::vector<recon::HalfGrid>& out) {
  FROST_EXPECTS(out.size() == static_cast<std::size_t>(spec_.grids), "out.size() == grids");
  if (finished_) FROST_THROW(ExitCode::Runtime, "CUDA accumulator: finish() called twice");
  for (int g = 0; g < spec_.grids; ++g)
    FROST_EXPECTS(out[static_cast<std::size_t>(g)].M == spec_.layout.M &&
                      out[static_cast<std::size_t>(g)].voxels() == spec_.layout.half_voxels(),
                  "half grid matches the layout");
  if (batches_released_) return;
  const auto t0 = Clock::now();
  synchronize_lanes();
  finish_tuning(tuning_, tuning_summary_);
  for (auto& lane : lanes_) {
    DeviceGuard guard(devices_[lane->device].id);
    lane->release_batch_buffers();
  }
  batches_released_ = true;
  times_.download_s += seconds_since(t0);
}

void CudaAccumulator::end_finish() {
  download_.release();
  finished_ = true;
}

std::vector<int> CudaAccumulator::device_ids() const {
  std::vector<int> ids;
  for (const auto& d : devices_) ids.push_back(d.id);
  return ids;
}

} // namespace frost::cuda::detail
