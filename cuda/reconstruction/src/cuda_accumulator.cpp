// The CUDA accumulator (docs/reconstruct_fourier.md#the-cuda-backend): lanes = devices x streams,
// one stream and one batch's device buffers per lane, one set of cubes per device; finish()
// folds every cube on its device and adds the half grids into the host's.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <sstream>
#include <utility>

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/core/log.hpp"
#include "frost/cuda/check.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "frost/cuda/insert_tuning.hpp"
#include "frost/cuda/reconstruction.hpp"
#include "frost/cuda/tuning.hpp"
#include "frost/tuning/device_lock.hpp"
#include "frost/tuning/dynamic_tuner.hpp"
#include "frost/tuning/program_selection.hpp"
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/grid.hpp"
#include "frost/cuda/fft.hpp"
#include "frost/fft/planner.hpp"
#include "insert_kernel.hpp"
#include "prepare_kernel.hpp"

namespace frost::cuda {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

/// Headroom left free beside the cubes for the lanes' batch buffers, the finish's fold buffers
/// and the runtime.
constexpr std::size_t kReserveBytes = std::size_t(256) << 20;

/// finish(): the folded half grid comes down in chunks of whole z planes of at most this many
/// bytes, through two device and two pinned host buffers (the fold and copy of chunk k + 1 run
/// while the host adds chunk k).
constexpr std::size_t kFoldChunkBytes = std::size_t(32) << 20;

/// One device: its cubes (per grid), the blob table and convolution taps, and the brick
/// kernel's block lists (per batch size).
struct DeviceState {
  int id = 0;
  std::string name;
  DeviceBuffer<float> table;
  DeviceBuffer<recon::BlobTap> taps;     ///< fast-mode convolution taps
  std::vector<DeviceBuffer<float>> g, w; ///< per grid: G (interleaved re, im) and W
  /// Brick launches: block lists keyed by (space count, largest frequency radius); filled
  /// under the accumulator's tasks mutex, never changed once made.
  std::map<std::pair<int, float>, DeviceBuffer<detail::BrickTask>> tasks;
};

/// One lane: a stream on one device and the device copy of one batch.
struct Lane {
  int device = 0; ///< index into the accumulator's devices
  Stream stream;
  /// Completion of this lane's latest uploads; the host waits on it without spinning.
  Event copied{cudaEventDisableTiming | cudaEventBlockingSync};
  /// Kernel timing, ping-pong: the pair of launch k is read at insert k + 1 (then complete).
  Event start[2], stop[2];
  bool pending[2] = {false, false};
  int current = 0;
  DeviceBuffer<recon::Cf> spectra;
  DeviceBuffer<float> gw;
  DeviceBuffer<recon::TraverseSpace> spaces;
  // Image batches (--fftOnGPU): images, shifts, CTF factors, padded FFT inputs, R2C spectra.
  DeviceBuffer<float> raw, padded, gf;
  DeviceBuffer<double> shifts;
  DeviceBuffer<recon::Cf> freq;
  fft::FftPlan r2c; ///< batched P x P R2C of the lane's capacity (cuFFT, cached per device)
  int fft_capacity = 0;
  // Stats (touched only by the lane's own thread, summed after the run).
  std::int64_t launches = 0, images = 0, space_count = 0;
  double kernel_ms = 0, upload_bytes = 0, wait_s = 0;

  /// Adds the elapsed time of the launch in slot `k` if it was recorded (it must be complete).
  void harvest(int k) {
    if (!pending[k]) return;
    kernel_ms += stop[k].elapsed_ms_since(start[k]);
    pending[k] = false;
  }
};

/// Dynamic tuning of the insertion launch on one device (docs/tune.md#dynamic-tuning-in-the-main-loop).
struct DeviceTuning {
  std::unique_ptr<tuning::DynamicTuner> tuner;
  std::vector<InsertLaunchConfig> launches; ///< per configuration of the tuner's space
  int comparable_spaces = 0;                ///< the space count of the batches a phase times
  std::string cache_dir, gpu_uuid;          ///< where finish() appends the record, and the device's UUID
  std::mutex mutex;                         ///< guards tuner (lanes call from their own threads)
  /// While the tuner tunes, lanes enqueue under a shared lock and a timed launch under the
  /// exclusive one, after draining the device's other lanes: it runs alone (isolation,
  /// docs/tune.md#dynamic-tuning-in-a-run).
  std::shared_mutex serial;
};

/// Launch errors that only mean "this configuration cannot run here" (not sticky).
bool configuration_refused(cudaError_t status) {
  return status == cudaErrorLaunchOutOfResources || status == cudaErrorInvalidConfiguration ||
         status == cudaErrorInvalidValue;
}

class CudaAccumulator final : public recon::GridAccumulator {
public:
  CudaAccumulator(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout, int grids,
                  const std::vector<int>& devices, int streams, const InsertLaunchConfig& launch)
      : settings_(settings), layout_(layout), grids_(grids), streams_(streams), launch_(launch),
        table_(settings.blob), taps_(recon::blob_convolution_taps(table_)) {
    if (grids < 1) FROST_THROW(ExitCode::Usage, "CUDA accumulator: grids must be >= 1");
    if (devices.empty()) FROST_THROW(ExitCode::Usage, "CUDA accumulator: no device given");
    if (streams < 1) FROST_THROW(ExitCode::Usage, "CUDA accumulator: streams per device must be >= 1");
    detail::validate(launch_);
    for (std::size_t i = 0; i < devices.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (devices[i] == devices[j])
          FROST_THROW(ExitCode::Usage, "CUDA accumulator: device " + std::to_string(devices[i]) + " listed twice");

    int count = 0;
    const cudaError_t st = cudaGetDeviceCount(&count);
    if (st != cudaSuccess) {
      cudaGetLastError();
      FROST_THROW(ExitCode::Device, std::string("CUDA reconstruction: no usable CUDA device (") +
                                        cudaGetErrorString(st) + "); use --device cpu");
    }
    for (int id : devices)
      if (id < 0 || id >= count)
        FROST_THROW(ExitCode::Device, "CUDA reconstruction: device " + std::to_string(id) + " requested but " +
                                          std::to_string(count) + " CUDA device(s) are visible");

    // Plan first (docs/reconstruct_fourier.md#memory): every device must hold the cubes before
    // anything is allocated.
    const std::size_t cube = cuda_cube_bytes(layout_, grids_);
    const std::size_t table_bytes = table_.values().size() * sizeof(float);
    for (int id : devices) {
      DeviceGuard guard(id);
      const auto [free_b, total_b] = memory_info();
      const std::size_t need = cube + table_bytes + kReserveBytes;
      if (need > free_b) {
        cudaDeviceProp p{};
        FROST_CUDA_CHECK(cudaGetDeviceProperties(&p, id));
        std::ostringstream os;
        os << "CUDA device " << id << " (" << p.name << "): the accumulation grid needs " << gib(double(cube))
           << " (" << grids_ << " x " << layout_.side() << "^3 voxels x 12 bytes, N " << layout_.box << ", P "
           << layout_.padded << ", M " << layout_.M << ") plus " << gib(double(kReserveBytes + table_bytes))
           << " for batches and tables, but only " << gib(double(free_b)) << " of " << gib(double(total_b))
           << " are free; use less --padding, a lower --max_resolution, or a GPU with more memory";
        FROST_THROW(ExitCode::Device, os.str());
      }
    }

    for (int id : devices) {
      DeviceGuard guard(id);
      DeviceState d;
      d.id = id;
      cudaDeviceProp p{};
      FROST_CUDA_CHECK(cudaGetDeviceProperties(&p, id));
      d.name = p.name;
      d.table = DeviceBuffer<float>(table_.values().size());
      FROST_CUDA_CHECK(cudaMemcpy(d.table.data(), table_.values().data(), table_bytes, cudaMemcpyHostToDevice));
      if (settings_.fast && !taps_.empty()) {
        d.taps = DeviceBuffer<recon::BlobTap>(taps_.size());
        FROST_CUDA_CHECK(cudaMemcpy(d.taps.data(), taps_.data(), taps_.size() * sizeof(recon::BlobTap),
                                    cudaMemcpyHostToDevice));
      }
      const std::size_t voxels = static_cast<std::size_t>(layout_.cube_voxels());
      for (int g = 0; g < grids_; ++g) {
        d.g.emplace_back(2 * voxels);
        d.w.emplace_back(voxels);
        FROST_CUDA_CHECK(cudaMemset(d.g.back().data(), 0, d.g.back().bytes()));
        FROST_CUDA_CHECK(cudaMemset(d.w.back().data(), 0, d.w.back().bytes()));
      }
      // The lanes' streams are non-blocking: they do not wait for the legacy stream, so the
      // zeroing and the table upload must be complete before any kernel starts.
      FROST_CUDA_CHECK(cudaDeviceSynchronize());
      devices_.push_back(std::move(d));
    }
    for (std::size_t d = 0; d < devices_.size(); ++d)
      for (int s = 0; s < streams_; ++s) {
        DeviceGuard guard(devices_[d].id); // stream and events belong to the current device
        auto lane = std::make_unique<Lane>();
        lane->device = static_cast<int>(d);
        lanes_.push_back(std::move(lane));
      }

    const recon::BlobParams& bp = settings_.blob;
    dynamic_.inv_radius2 = static_cast<float>(1.0 / (bp.radius * bp.radius));
    dynamic_.alpha = static_cast<float>(bp.alpha);
    dynamic_.order = bp.order;
    dynamic_.scale = static_cast<float>(table_.scale() / recon::bessel_i(bp.order, bp.alpha));
  }

  ~CudaAccumulator() override {
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
      d.table = DeviceBuffer<float>();
      d.taps = DeviceBuffer<recon::BlobTap>();
      d.tasks.clear();
      d.g.clear();
      d.w.clear();
    }
    if (restore) cudaSetDevice(previous);
    cudaGetLastError();
  }

  int lanes() const override { return static_cast<int>(lanes_.size()); }

  /// make_tuned_cuda_accumulator: one tuner per device (in devices order), before any insert().
  void enable_tuning(std::vector<std::unique_ptr<DeviceTuning>> per_device) {
    FROST_EXPECTS(per_device.size() == devices_.size(), "one tuner per device");
    tuning_ = std::move(per_device);
  }

  int device_id(std::size_t d) const { return devices_[d].id; }
  std::size_t device_count() const { return devices_.size(); }

  void insert(const recon::SampleBatch& batch, int grid, int lane) override {
    if (finished_) FROST_THROW(ExitCode::Runtime, "CUDA accumulator: insert() after finish()");
    FROST_EXPECTS(grid >= 0 && grid < grids_, "grid >= 0 && grid < grids");
    FROST_EXPECTS(lane >= 0 && lane < lanes(), "lane >= 0 && lane < lanes()");
    const recon::GridLayout& bl = batch.layout();
    FROST_EXPECTS(bl.M == layout_.M && bl.fx == layout_.fx && bl.fy == layout_.fy, "batch layout matches the grid");
    if (batch.size() == 0) return;
    Lane& L = *lanes_[lane];
    DeviceState& D = devices_[L.device];
    DeviceGuard guard(D.id);
    reserve(L, batch);

    const cudaStream_t s = L.stream.get();
    const std::size_t pixels = batch.pixels() * static_cast<std::size_t>(batch.size());
    const int spaces = batch.space_count();

    // Which launch (the fixed one, or the device tuner's step) and, during tuning, the locks.
    InsertLaunchConfig launch = launch_;
    DeviceTuning* T = tuning_.empty() ? nullptr : tuning_[static_cast<std::size_t>(L.device)].get();
    tuning::DynamicTuner::Step step;
    std::shared_lock<std::shared_mutex> shared;
    std::unique_lock<std::shared_mutex> exclusive;
    if (T) {
      bool tuning_now = false;
      {
        std::lock_guard<std::mutex> lock(T->mutex);
        tuning_now = T->tuner->tuning();
        step = T->tuner->next(spaces == T->comparable_spaces);
      }
      launch = T->launches[step.config];
      if (step.timed) exclusive = std::unique_lock<std::shared_mutex>(T->serial);
      else if (tuning_now) shared = std::shared_lock<std::shared_mutex>(T->serial);
    }
    // Ordered after this lane's previous kernel, which reads the same buffers.
    double bytes = 0;
    if (batch.holds_images()) {
      const std::size_t image_px = batch.image_pixels() * static_cast<std::size_t>(batch.size());
      L.raw.upload_async(batch.images_data(), image_px, s);
      L.shifts.upload_async(batch.shifts_data(), 2 * static_cast<std::size_t>(batch.size()), s);
      if (batch.has_gw()) L.gf.upload_async(batch.gf_data(), pixels, s);
      bytes += double(image_px) * sizeof(float) + 2.0 * batch.size() * sizeof(double) +
               (batch.has_gw() ? double(pixels) * sizeof(float) : 0.0);
    } else {
      L.spectra.upload_async(reinterpret_cast<const recon::Cf*>(batch.spectra_data()), pixels, s);
      bytes += double(pixels) * sizeof(recon::Cf);
    }
    if (batch.has_gw()) L.gw.upload_async(batch.gw_data(), pixels, s);
    L.spaces.upload_async(batch.spaces(), static_cast<std::size_t>(spaces), s);
    bytes += (batch.has_gw() ? double(pixels) * sizeof(float) : 0.0) + double(spaces) * sizeof(recon::TraverseSpace);
    L.copied.record(s);
    if (batch.holds_images()) prepare_on_device(L, batch.size(), batch.has_gw());

    detail::InsertArgs args = make_args(L, D, grid, batch);
    const int k = L.current;
    if (step.timed) drain_other_lanes(L);
    L.start[k].record(s);
    if (step.timed) {
      launch_timed(*T, step, launch, args, L, k);
    } else {
      detail::launch_insert(launch, args, s);
      L.stop[k].record(s);
      L.pending[k] = true;
    }
    L.current = 1 - k;
    if (shared) shared.unlock();

    // The loader may refill the batch once the copies are done; the kernel keeps running.
    const auto t0 = Clock::now();
    L.copied.synchronize();
    L.wait_s += seconds_since(t0);
    // The copies followed the previous launch on this stream, so that launch is complete.
    L.harvest(1 - k);

    ++L.launches;
    L.images += batch.size();
    L.space_count += spaces;
    L.upload_bytes += bytes;
  }

  void finish(std::vector<recon::HalfGrid>& out) override {
    release_batches(out);
    // Every device folds its own cube; the host sums the half grids in double.
    for (int g = 0; g < grids_; ++g)
      for (auto& d : devices_) {
        fold_device(d, g, out[static_cast<std::size_t>(g)]);
        release_cube(d, g);
      }
    end_finish();
  }

  /// With a grid symmetry: each device folds its cube into a device half grid, makes its kx = 0
  /// plane Hermitian and symmetrises it plane chunk by plane chunk on the way to the host (the
  /// symmetrisation is linear, so summing the devices' symmetrised grids equals symmetrising
  /// their sum). Where a device half grid does not fit, the base class's path: fold to the
  /// host, then symmetrise() the host grids.
  void finish_symmetrised(std::vector<recon::HalfGrid>& out, const std::vector<recon::Rotation9<double>>& rotations,
                          double max_r2, double* symmetrise_s) override {
    if (rotations.size() >= 2) {
      release_batches(out);
      if (device_half_grids_fit()) {
        for (int g = 0; g < grids_; ++g)
          for (auto& d : devices_) fold_symmetrise_device(d, g, out[static_cast<std::size_t>(g)], rotations, max_r2,
                                                          symmetrise_s);
        end_finish();
        return;
      }
      log_info("grid symmetrisation: a device half grid does not fit beside the cube; symmetrising on the host");
    }
    GridAccumulator::finish_symmetrised(out, rotations, max_r2, symmetrise_s);
  }

  /// Test hook (cuda_download_cube): grid g's cube summed over the devices, before finish().
  recon::FullGrid download_cube(int g) {
    if (finished_) FROST_THROW(ExitCode::Usage, "CUDA accumulator: cube requested after finish()");
    FROST_EXPECTS(g >= 0 && g < grids_, "grid >= 0 && grid < grids");
    synchronize_lanes();
    recon::FullGrid sum(layout_);
    for (std::size_t d = 0; d < devices_.size(); ++d) {
      if (d == 0) {
        download(devices_[d], g, sum);
      } else {
        recon::FullGrid part(layout_);
        download(devices_[d], g, part);
        sum += part;
      }
    }
    return sum;
  }

  std::string describe() const override {
    std::ostringstream os;
    os << "cuda:";
    for (std::size_t d = 0; d < devices_.size(); ++d) os << (d ? "," : "") << devices_[d].id;
    os << " " << devices_.front().name << ", " << streams_ << (streams_ == 1 ? " stream" : " streams")
       << (devices_.size() > 1 ? " per device" : "") << ", " << insert_kernel_name(launch_.kernel) << " kernel";
    if (launch_.kernel == InsertKernel::Column) os << " (block " << launch_.block_x << "x" << launch_.block_y << ")";
    os << ", " << (settings_.fast ? "fast (nearest)" : settings_.interp == recon::Interpolation::Lookup
                                                              ? "precise, table weights"
                                                              : "precise, on-the-fly weights");
    return os.str();
  }

  HostMemory host_memory() const override { return HostMemory::Pinned; }

  bool fft_on_device() const override { return launch_.fft_on_device; }

  void symmetrise(recon::HalfGrid& grid, const std::vector<recon::Rotation9<double>>& rotations,
                  double max_r2) override {
    try {
      symmetrise_half_grid(grid, rotations, max_r2, devices_.front().id);
    } catch (const Error& e) {
      log_warning(std::string("grid symmetrisation on the GPU failed (") + e.what() + "); using the CPU");
      recon::symmetrise_grid(grid, rotations, max_r2);
    }
  }

  CudaInsertStats stats() const {
    CudaInsertStats s;
    s.valid = true;
    for (const auto& l : lanes_) {
      s.launches += l->launches;
      s.images += l->images;
      s.spaces += l->space_count;
      s.kernel_ms += l->kernel_ms;
      s.upload_bytes += l->upload_bytes;
      s.insert_wait_s += l->wait_s;
    }
    s.download_s = download_s_;
    s.host_finish_s = host_finish_s_;
    s.tuning = tuning_summary_;
    return s;
  }

  /// Kernel-only timing on lane 0 (see time_insert_kernel).
  KernelTiming time_kernel(const recon::SampleBatch& batch, int reps) {
    FROST_EXPECTS(reps >= 1, "reps >= 1");
    KernelTiming t;
    t.reps = reps;
    t.spaces = batch.space_count();
    if (batch.size() == 0) return t;
    stage(batch);
    Lane& L = *lanes_[0];
    DeviceGuard guard(devices_[L.device].id);
    const cudaStream_t s = L.stream.get();
    launch_staged(launch_, 0); // warm-up
    L.start[0].record(s);
    for (int r = 0; r < reps; ++r) launch_staged(launch_, 0);
    L.stop[0].record(s);
    L.stop[0].synchronize();
    t.ms_per_launch = double(L.stop[0].elapsed_ms_since(L.start[0])) / reps;
    return t;
  }

  // ---- kernel tuning (InsertKernelBench): one batch kept on lane 0, launched at will ----

  /// Uploads `batch` (prepared samples) to lane 0 and keeps its launch arguments.
  void stage(const recon::SampleBatch& batch) {
    FROST_EXPECTS(!batch.holds_images(), "kernel timing takes a batch of prepared samples");
    Lane& L = *lanes_[0];
    DeviceState& D = devices_[L.device];
    DeviceGuard guard(D.id);
    reserve(L, batch);
    const cudaStream_t s = L.stream.get();
    const std::size_t pixels = batch.pixels() * static_cast<std::size_t>(batch.size());
    L.spectra.upload_async(reinterpret_cast<const recon::Cf*>(batch.spectra_data()), pixels, s);
    if (batch.has_gw()) L.gw.upload_async(batch.gw_data(), pixels, s);
    L.spaces.upload_async(batch.spaces(), static_cast<std::size_t>(batch.space_count()), s);
    staged_args_.clear();
    for (int g = 0; g < grids_; ++g) staged_args_.push_back(make_args(L, D, g, batch));
    L.stream.synchronize();
  }
  /// Enqueues the staged batch's insertion into grid `grid` with `config` on lane 0's stream.
  void launch_staged(const InsertLaunchConfig& config, int grid) {
    FROST_EXPECTS(grid >= 0 && grid < static_cast<int>(staged_args_.size()), "a staged grid");
    detail::validate(config);
    Lane& L = *lanes_[0];
    DeviceGuard guard(devices_[L.device].id);
    detail::launch_insert(config, staged_args_[static_cast<std::size_t>(grid)], L.stream.get());
  }
  cudaStream_t staged_stream() { return lanes_[0]->stream.get(); }
  int staged_device() const { return devices_[lanes_[0]->device].id; }
  /// Zeroes grid `grid`'s cube on lane 0's device (ordered on its stream).
  void zero_grid(int grid) {
    Lane& L = *lanes_[0];
    DeviceState& D = devices_[L.device];
    DeviceGuard guard(D.id);
    auto& g = D.g[static_cast<std::size_t>(grid)];
    auto& w = D.w[static_cast<std::size_t>(grid)];
    FROST_CUDA_CHECK(cudaMemsetAsync(g.data(), 0, g.bytes(), L.stream.get()));
    FROST_CUDA_CHECK(cudaMemsetAsync(w.data(), 0, w.bytes(), L.stream.get()));
  }
  /// The larger of the relative differences (tuning::relative_max_difference) of grid `out`'s
  /// G and W cubes against grid `ref`'s, computed on the device.
  double grid_difference(int ref, int out) {
    Lane& L = *lanes_[0];
    DeviceState& D = devices_[L.device];
    DeviceGuard guard(D.id);
    const auto r = static_cast<std::size_t>(ref), o = static_cast<std::size_t>(out);
    const double dg = device_relative_max_difference(D.g[r].data(), D.g[o].data(), D.g[r].size(), L.stream.get());
    const double dw = device_relative_max_difference(D.w[r].data(), D.w[o].data(), D.w[r].size(), L.stream.get());
    return dg > dw ? dg : dw;
  }

private:
  /// Waits for every lane's work and collects its kernel times.
  void synchronize_lanes() {
    for (auto& lane : lanes_) {
      DeviceGuard guard(devices_[lane->device].id);
      lane->stream.synchronize();
      lane->harvest(0);
      lane->harvest(1);
    }
  }

  /// Checks `out`, waits for every lane and frees the batches' device buffers (they make room
  /// for the finish's buffers). Once per accumulator.
  void release_batches(const std::vector<recon::HalfGrid>& out) {
    FROST_EXPECTS(out.size() == static_cast<std::size_t>(grids_), "out.size() == grids");
    if (finished_) FROST_THROW(ExitCode::Runtime, "CUDA accumulator: finish() called twice");
    for (int g = 0; g < grids_; ++g)
      FROST_EXPECTS(out[static_cast<std::size_t>(g)].M == layout_.M &&
                        out[static_cast<std::size_t>(g)].voxels() == layout_.half_voxels(),
                    "half grid matches the layout");
    if (batches_released_) return;
    const auto t0 = Clock::now();
    synchronize_lanes();
    finish_tuning();
    for (auto& lane : lanes_) {
      DeviceGuard guard(devices_[lane->device].id);
      Lane& L = *lane;
      L.spectra = DeviceBuffer<recon::Cf>();
      L.gw = DeviceBuffer<float>();
      L.spaces = DeviceBuffer<recon::TraverseSpace>();
      L.raw = DeviceBuffer<float>();
      L.padded = DeviceBuffer<float>();
      L.gf = DeviceBuffer<float>();
      L.freq = DeviceBuffer<recon::Cf>();
      L.shifts = DeviceBuffer<double>();
      L.fft_capacity = 0;
    }
    batches_released_ = true;
    download_s_ += seconds_since(t0);
  }

  /// A timed step: nothing else runs on the device (the caller holds the exclusive lock and
  /// drained the other lanes). A configuration the device refuses is reported invalid and the
  /// batch is inserted with the tuner's current configuration instead.
  void launch_timed(DeviceTuning& T, const tuning::DynamicTuner::Step& step, const InsertLaunchConfig& launch,
                    const detail::InsertArgs& args, Lane& L, int k) {
    const cudaStream_t s = L.stream.get();
    std::optional<double> ms;
    try {
      detail::launch_insert(launch, args, s);
      L.stop[k].record(s);
      L.stop[k].synchronize();
      ms = L.stop[k].elapsed_ms_since(L.start[k]);
      L.kernel_ms += *ms;
    } catch (const CudaError& e) {
      if (!configuration_refused(e.status())) throw;
      cudaGetLastError();
    }
    std::size_t fallback = 0;
    {
      std::lock_guard<std::mutex> lock(T.mutex);
      T.tuner->report(step, ms);
      fallback = T.tuner->current();
    }
    if (!ms) {
      detail::launch_insert(T.launches[fallback], args, s);
      L.stop[k].record(s);
      L.pending[k] = true;
    }
  }

  /// Waits for the kernels of the other lanes on `L`'s device (their threads are blocked on
  /// the tuning lock, so nothing new is enqueued meanwhile).
  void drain_other_lanes(const Lane& L) {
    for (auto& other : lanes_)
      if (other.get() != &L && other->device == L.device) other->stream.synchronize();
  }

  /// Once, after every lane finished: each device's tuner logs what it did and a tuning
  /// phase's record goes to the cache.
  void finish_tuning() {
    for (auto& T : tuning_) {
      const std::string summary = T->tuner->summary();
      log_info("tuning " + summary);
      tuning_summary_ += (tuning_summary_.empty() ? "" : "\n") + summary;
      if (auto record = T->tuner->record()) {
        record->gpu_uuid = T->gpu_uuid;
        tuning::TuningCache(T->cache_dir).append(*record);
      }
    }
    tuning_.clear();
  }

  void end_finish() {
    staging_[0].reset();
    staging_[1].reset();
    finished_ = true;
  }

  void release_cube(DeviceState& d, int g) {
    DeviceGuard guard(d.id);
    d.g[static_cast<std::size_t>(g)] = DeviceBuffer<float>();
    d.w[static_cast<std::size_t>(g)] = DeviceBuffer<float>();
  }

  /// Bytes of one device half grid (float re, im, w per voxel).
  std::size_t half_grid_bytes() const { return static_cast<std::size_t>(layout_.half_voxels()) * 3 * sizeof(float); }

  /// Whether every device has room for a half grid beside its cubes, with chunk buffers.
  bool device_half_grids_fit() const {
    for (const auto& d : devices_) {
      DeviceGuard guard(d.id);
      const auto [free_b, total_b] = memory_info();
      (void)total_b;
      if (half_grid_bytes() + kReserveBytes > free_b) return false;
    }
    return true;
  }

  detail::FoldArgs fold_args(DeviceState& d, int g) const {
    detail::FoldArgs args;
    args.g = d.g[static_cast<std::size_t>(g)].data();
    args.w = d.w[static_cast<std::size_t>(g)].data();
    args.M = layout_.M;
    if (settings_.fast) {
      args.taps = d.taps.data();
      args.tap_count = static_cast<int>(d.taps.size());
    }
    return args;
  }

  /// Folds (fast mode: convolves, then folds) grid g's cube on device d, plane chunk by plane
  /// chunk, and adds the float half grid into `out` (double).
  void fold_device(DeviceState& d, int g, recon::HalfGrid& out) {
    const detail::FoldArgs args = fold_args(d, g);
    planes_to_host(d, out, [&](int z0, int nz, float* dst, cudaStream_t stream) {
      detail::FoldArgs a = args;
      a.z0 = z0;
      a.nz = nz;
      a.out = dst;
      detail::launch_fold(a, stream);
    });
  }

  /// fold_device with the grid symmetrisation (finish_symmetrised): the whole cube is folded
  /// into a device half grid, which is symmetrised plane chunk by plane chunk into `out`.
  void fold_symmetrise_device(DeviceState& d, int g, recon::HalfGrid& out,
                              const std::vector<recon::Rotation9<double>>& rotations, double max_r2,
                              double* symmetrise_s) {
    DeviceGuard guard(d.id);
    auto t0 = Clock::now();
    const std::size_t hv = static_cast<std::size_t>(layout_.half_voxels());
    DeviceBuffer<float> half(3 * hv); // (re, im) interleaved, then the weights: launch_fold's layout
    {
      Stream stream;
      detail::FoldArgs a = fold_args(d, g);
      a.z0 = 0;
      a.nz = layout_.side();
      a.out = half.data();
      detail::launch_fold(a, stream.get());
      detail::launch_kx0_average(half.data(), half.data() + 2 * hv, layout_.M, stream.get());
      stream.synchronize();
    }
    release_cube(d, g); // folded: its memory goes to the chunk buffers
    DeviceBuffer<recon::Rotation9<double>> rot(rotations.size());
    FROST_CUDA_CHECK(cudaMemcpy(rot.data(), rotations.data(), rotations.size() * sizeof(rotations[0]),
                                cudaMemcpyHostToDevice));
    download_s_ += seconds_since(t0);
    t0 = Clock::now();
    detail::SymmetrisePlanesArgs args;
    args.data = half.data();
    args.weight = half.data() + 2 * hv;
    args.M = layout_.M;
    args.rotations = rot.data();
    args.count = static_cast<int>(rotations.size());
    args.max_r2 = max_r2;
    planes_to_host(d, out, [&](int z0, int nz, float* dst, cudaStream_t stream) {
      detail::SymmetrisePlanesArgs a = args;
      a.z0 = z0;
      a.nz = nz;
      a.out = dst;
      detail::launch_symmetrise_planes(a, stream);
    });
    if (symmetrise_s) *symmetrise_s += seconds_since(t0);
  }

  /// The finish's download pipeline on device d: `produce(z0, nz, dst, stream)` enqueues a
  /// kernel that writes half-grid planes [z0, z0 + nz) into dst (2 n interleaved values, then
  /// n weights); chunks of whole planes come down through two device and two pinned host
  /// buffers (chunk k + 1 is made and copied while the host adds chunk k into `out`, double).
  template <class Produce>
  void planes_to_host(DeviceState& d, recon::HalfGrid& out, const Produce& produce) {
    DeviceGuard guard(d.id);
    auto t0 = Clock::now();
    const int side = layout_.side();
    const std::size_t plane = static_cast<std::size_t>(layout_.half_x()) * static_cast<std::size_t>(side);
    const std::size_t plane_bytes = plane * 3 * sizeof(float);
    const auto [free_b, total_b] = memory_info();
    (void)total_b;
    const std::size_t budget = std::min(kFoldChunkBytes, free_b / 4);
    const int planes = static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(budget / plane_bytes, side)));
    const std::size_t chunk = static_cast<std::size_t>(planes) * plane * 3; // floats per buffer
    DeviceBuffer<float> dev[2] = {DeviceBuffer<float>(chunk), DeviceBuffer<float>(chunk)};
    for (auto& h : staging_)
      if (h.size() < chunk) h = HostBuffer<float>(chunk, HostMemory::Pinned);
    Stream stream;
    Event done[2] = {Event(cudaEventDisableTiming | cudaEventBlockingSync),
                     Event(cudaEventDisableTiming | cudaEventBlockingSync)};
    const int chunks = (side + planes - 1) / planes;
    auto enqueue = [&](int k) {
      const int z0 = k * planes, nz = std::min(planes, side - z0);
      produce(z0, nz, dev[k % 2].data(), stream.get());
      const std::size_t floats = static_cast<std::size_t>(nz) * plane * 3;
      FROST_CUDA_CHECK(cudaMemcpyAsync(staging_[k % 2].data(), dev[k % 2].data(), floats * sizeof(float),
                                       cudaMemcpyDeviceToHost, stream.get()));
      done[k % 2].record(stream.get());
    };
    enqueue(0);
    if (chunks > 1) enqueue(1);
    download_s_ += seconds_since(t0);
    for (int k = 0; k < chunks; ++k) {
      t0 = Clock::now();
      done[k % 2].synchronize();
      download_s_ += seconds_since(t0);
      t0 = Clock::now();
      const int z0 = k * planes, nz = std::min(planes, side - z0);
      const std::int64_t n = static_cast<std::int64_t>(nz) * static_cast<std::int64_t>(plane);
      const std::int64_t o0 = static_cast<std::int64_t>(z0) * static_cast<std::int64_t>(plane);
      const float* src = staging_[k % 2].data();
      double* dst = out.data.data();
      double* dst_w = out.weight.data();
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < n; ++i) {
        dst[2 * (o0 + i)] += src[2 * i];
        dst[2 * (o0 + i) + 1] += src[2 * i + 1];
        dst_w[o0 + i] += src[2 * n + i];
      }
      host_finish_s_ += seconds_since(t0);
      t0 = Clock::now();
      if (k + 2 < chunks) enqueue(k + 2); // the host buffer k % 2 is free again
      download_s_ += seconds_since(t0);
    }
  }

  /// Makes the lane's device buffers large enough for `batch` (allocated on first use; the
  /// batch capacity is known only then). Checks free memory first.
  void reserve(Lane& L, const recon::SampleBatch& batch) {
    const std::size_t pixels = batch.pixels() * static_cast<std::size_t>(batch.capacity());
    const std::size_t spaces = static_cast<std::size_t>(batch.capacity()) * batch.symmetries();
    const bool need_gw = batch.has_gw();
    if (batch.holds_images()) reserve_fft(L, batch);
    if (L.spectra.size() >= pixels && L.spaces.size() >= spaces && (!need_gw || L.gw.size() >= pixels)) return;
    // gather.hpp indexes a batch's pixels with int.
    if (pixels > static_cast<std::size_t>(INT_MAX))
      FROST_THROW(ExitCode::Usage, "CUDA reconstruction: a batch of " + std::to_string(batch.capacity()) +
                                       " images of " + std::to_string(batch.pixels()) +
                                       " samples is too large; use a smaller --bufferSize");
    const std::size_t bytes = pixels * (sizeof(recon::Cf) + (need_gw ? sizeof(float) : 0)) +
                              spaces * sizeof(recon::TraverseSpace);
    L.stream.synchronize(); // a running kernel may still read the old buffers
    L.spectra = DeviceBuffer<recon::Cf>();
    L.gw = DeviceBuffer<float>();
    L.spaces = DeviceBuffer<recon::TraverseSpace>();
    const auto [free_b, total_b] = memory_info();
    if (bytes > free_b)
      FROST_THROW(ExitCode::Device, "CUDA device " + std::to_string(devices_[L.device].id) + ": a batch buffer of " +
                                        gib(double(bytes)) + " (" + std::to_string(batch.capacity()) +
                                        " images) does not fit in the " + gib(double(free_b)) + " free of " +
                                        gib(double(total_b)) + "; use a smaller --bufferSize or fewer --streams");
    L.spectra = DeviceBuffer<recon::Cf>(pixels);
    if (need_gw) L.gw = DeviceBuffer<float>(pixels);
    L.spaces = DeviceBuffer<recon::TraverseSpace>(spaces);
  }

  /// Buffers and the cuFFT plan of an image batch's preparation (--fftOnGPU), sized for the
  /// batch's capacity.
  void reserve_fft(Lane& L, const recon::SampleBatch& batch) {
    const int cap = batch.capacity();
    if (L.fft_capacity >= cap && (!batch.has_gw() || L.gf.size() >= batch.pixels() * static_cast<std::size_t>(cap)))
      return;
    const int P = layout_.padded;
    const std::size_t image_px = batch.image_pixels() * static_cast<std::size_t>(cap);
    const std::size_t padded_px = std::size_t(P) * P * static_cast<std::size_t>(cap);
    const std::size_t freq_px = std::size_t(P) * (P / 2 + 1) * static_cast<std::size_t>(cap);
    const std::size_t bytes = image_px * sizeof(float) + padded_px * sizeof(float) + freq_px * sizeof(recon::Cf) +
                              (batch.has_gw() ? batch.pixels() * cap * sizeof(float) : 0);
    L.stream.synchronize(); // a running kernel may still read the old buffers
    L.raw = DeviceBuffer<float>();
    L.padded = DeviceBuffer<float>();
    L.freq = DeviceBuffer<recon::Cf>();
    L.gf = DeviceBuffer<float>();
    const auto [free_b, total_b] = memory_info();
    if (bytes > free_b)
      FROST_THROW(ExitCode::Device, "CUDA device " + std::to_string(devices_[L.device].id) +
                                        ": the FFT buffers of a batch need " + gib(double(bytes)) + " (" +
                                        std::to_string(cap) + " images of " + std::to_string(P) + "^2) but only " +
                                        gib(double(free_b)) + " of " + gib(double(total_b)) +
                                        " are free; use a smaller --bufferSize or fewer --streams");
    L.raw = DeviceBuffer<float>(image_px);
    L.padded = DeviceBuffer<float>(padded_px);
    L.freq = DeviceBuffer<recon::Cf>(freq_px);
    L.shifts = DeviceBuffer<double>(2 * static_cast<std::size_t>(cap));
    if (batch.has_gw()) L.gf = DeviceBuffer<float>(batch.pixels() * static_cast<std::size_t>(cap));
    L.r2c = fft::shared_planner(fft::Backend::Cuda, devices_[L.device].id)
                ->plan(fft::FftSpec::r2c(Shape{P, P, 1, cap}));
    L.fft_capacity = cap;
  }

  /// Pad, transform and crop the lane's `count` uploaded images into its samples (ordered on
  /// the lane's stream after the uploads, before the insertion).
  void prepare_on_device(Lane& L, int count, bool with_gf) {
    const cudaStream_t s = L.stream.get();
    const int P = layout_.padded;
    detail::launch_pad_images(L.raw.data(), count, layout_.box, P, L.padded.data(), s);
    // The plan transforms the lane's whole capacity; slots past `count` hold stale inputs that
    // nothing reads.
    L.r2c.execute(L.padded.data(), L.freq.data(), on_stream(s));
    detail::CropArgs c;
    c.count = count;
    c.P = P;
    c.fx = layout_.fx;
    c.fy = layout_.fy;
    c.M = layout_.M;
    c.limit = layout_.max_frequency_sq();
    detail::launch_crop_spectra(L.freq.data(), L.shifts.data(), with_gf ? L.gf.data() : nullptr, c, L.spectra.data(), s);
  }

  detail::InsertArgs make_args(Lane& L, DeviceState& D, int grid, const recon::SampleBatch& batch) {
    detail::InsertArgs a;
    a.spaces = L.spaces.data();
    a.space_count = batch.space_count();
    a.samples.spectra = L.spectra.data();
    a.samples.gw = batch.has_gw() ? L.gw.data() : nullptr;
    a.samples.fx = layout_.fx;
    a.samples.fy = layout_.fy;
    a.samples.M = layout_.M;
    a.fast = settings_.fast;
    // As the CPU inserter: the table in fast mode or with --interp lookup (insert_batch_cpu).
    a.weight = settings_.interp == recon::Interpolation::Lookup || settings_.fast ? detail::WeightMode::Table
                                                                                  : detail::WeightMode::Dynamic;
    a.radius = static_cast<float>(settings_.blob.radius);
    a.table = table_.view();
    a.table.data = D.table.data();
    a.dynamic = dynamic_;
    a.g = D.g[grid].data();
    a.w = D.w[grid].data();
    a.side = layout_.side();
    // Column: the grid covers the largest plane of the batch (launch shape computed per batch).
    const recon::TraverseSpace* ts = batch.spaces();
    float max_d2 = 0;
    for (int i = 0; i < a.space_count; ++i) {
      a.extent_a = std::max(a.extent_a, ts[i].columns_a());
      a.extent_b = std::max(a.extent_b, ts[i].columns_b());
      max_d2 = std::max(max_d2, ts[i].max_distance_sqr);
    }
    if (launch_.kernel == InsertKernel::Brick) {
      // The slab a space touches: the blob radius, or in fast mode the half voxel by which the
      // voxel a column selects can be off the slice (|c - hit| <= 1/2 along the column, so its
      // distance to the slice is at most |n_dir| / 2 <= 1/2).
      a.slab = settings_.fast ? 0.5f : a.radius;
      const float max_radius = std::sqrt(max_d2);
      std::lock_guard<std::mutex> lock(tasks_mutex_);
      auto key = std::make_pair(a.space_count, max_radius);
      auto it = D.tasks.find(key);
      if (it == D.tasks.end()) {
        const std::vector<detail::BrickTask> tasks =
            detail::make_brick_tasks(layout_.M, a.space_count, a.slab, max_radius, launch_.brick_target_hits);
        DeviceBuffer<detail::BrickTask> buf(tasks.size());
        if (!tasks.empty())
          FROST_CUDA_CHECK(cudaMemcpy(buf.data(), tasks.data(), tasks.size() * sizeof(detail::BrickTask),
                                      cudaMemcpyHostToDevice));
        it = D.tasks.emplace(key, std::move(buf)).first;
      }
      a.tasks = it->second.data();
      a.task_count = static_cast<int>(it->second.size());
    }
    return a;
  }

  void download(DeviceState& d, int g, recon::FullGrid& into) const {
    DeviceGuard guard(d.id);
    const std::size_t voxels = static_cast<std::size_t>(layout_.cube_voxels());
    static_assert(sizeof(fft::Complex) == 2 * sizeof(float), "complex layout");
    FROST_EXPECTS(static_cast<std::size_t>(into.data.size()) == voxels, "host grid size");
    FROST_CUDA_CHECK(cudaMemcpy(reinterpret_cast<float*>(into.data.data()), d.g[g].data(), 2 * voxels * sizeof(float),
                                cudaMemcpyDeviceToHost));
    FROST_CUDA_CHECK(cudaMemcpy(into.weight.data(), d.w[g].data(), voxels * sizeof(float), cudaMemcpyDeviceToHost));
  }

  recon::ReconstructionSettings settings_;
  recon::GridLayout layout_;
  int grids_ = 1, streams_ = 1;
  InsertLaunchConfig launch_;
  /// Per device (index into devices_) when the launch is tuned during the run; else empty.
  std::vector<std::unique_ptr<DeviceTuning>> tuning_;
  std::string tuning_summary_; ///< finish_tuning(): each device tuner's summary line
  std::vector<detail::InsertArgs> staged_args_; ///< stage(): per grid, the staged batch's launch arguments
  recon::BlobTable table_;
  std::vector<recon::BlobTap> taps_;
  recon::DynamicWeight dynamic_;
  std::mutex tasks_mutex_;
  HostBuffer<float> staging_[2]; ///< finish(): pinned chunks of the folded half grid
  std::vector<DeviceState> devices_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  bool finished_ = false;
  bool batches_released_ = false;
  double download_s_ = 0, host_finish_s_ = 0;
};

} // namespace

InsertLaunchConfig default_insert_launch() { return InsertLaunchConfig{}; }

const char* insert_kernel_name(InsertKernel kernel) { return kernel == InsertKernel::Brick ? "brick" : "column"; }

std::size_t cuda_cube_bytes(const recon::GridLayout& layout, int grids) {
  return static_cast<std::size_t>(grids) * static_cast<std::size_t>(layout.cube_voxels()) *
         (2 * sizeof(float) + sizeof(float));
}

std::unique_ptr<recon::GridAccumulator> make_cuda_accumulator(const recon::ReconstructionSettings& settings,
                                                              const recon::GridLayout& layout, int grids,
                                                              const std::vector<int>& devices,
                                                              int streams_per_device,
                                                              const InsertLaunchConfig& launch) {
  return std::make_unique<CudaAccumulator>(settings, layout, grids, devices, streams_per_device, launch);
}

std::unique_ptr<recon::GridAccumulator> make_tuned_cuda_accumulator(
    const recon::ReconstructionSettings& settings, const recon::GridLayout& layout, int grids,
    const std::vector<int>& devices, int streams_per_device, const tuning::TuningOptions& options,
    long long spaces_per_launch, double estimated_launches, const InsertLaunchConfig& base) {
  const bool in_run = options.policy == tuning::TunePolicy::Auto || options.policy == tuning::TunePolicy::Dynamic;
  if (!in_run || devices.empty()) {
    const InsertLaunchConfig launch =
        devices.empty() ? base : select_insert_launch(settings, layout, spaces_per_launch, devices.front(), options, base);
    return make_cuda_accumulator(settings, layout, grids, devices, streams_per_device, launch);
  }
  auto acc = std::make_unique<CudaAccumulator>(settings, layout, grids, devices, streams_per_device, base);
  std::vector<std::unique_ptr<DeviceTuning>> per_device;
  for (std::size_t d = 0; d < acc->device_count(); ++d) {
    const int id = acc->device_id(d);
    const CudaDeviceInfo info = cuda_device_info(id);
    FrInsertLookup lookup = fr_insert_lookup(settings, layout, spaces_per_launch, id, info, options);
    tuning::DynamicTuner::Setup setup;
    setup.options = options;
    setup.key = lookup.key.str();
    setup.selection = std::move(lookup.selection);
    setup.estimated_calls = estimated_launches / static_cast<double>(acc->device_count());
    const std::string dir = options.cache_dir, uuid = info.uuid;
    setup.lock_device = [dir, uuid] { return tuning::try_tuning_lock(dir, uuid); };
    log_info("tuning device " + std::to_string(id) + " " +
             tuning::describe_selection(lookup.space.kernel, setup.selection, options, true));
    auto T = std::make_unique<DeviceTuning>();
    T->comparable_spaces = static_cast<int>(spaces_per_launch);
    T->cache_dir = dir;
    T->gpu_uuid = uuid;
    tuning::KernelSpace& space = lookup.space;
    T->tuner = std::make_unique<tuning::DynamicTuner>(std::move(space), std::move(setup));
    for (const tuning::Configuration& c : T->tuner->configs())
      T->launches.push_back(insert_launch_from(T->tuner->space().space.named(c), base));
    per_device.push_back(std::move(T));
  }
  acc->enable_tuning(std::move(per_device));
  return acc;
}

CudaInsertStats cuda_insert_stats(const recon::GridAccumulator& accumulator) {
  const auto* a = dynamic_cast<const CudaAccumulator*>(&accumulator);
  return a ? a->stats() : CudaInsertStats{};
}

recon::FullGrid cuda_download_cube(recon::GridAccumulator& accumulator, int grid) {
  auto* a = dynamic_cast<CudaAccumulator*>(&accumulator);
  if (!a) FROST_THROW(ExitCode::Usage, "cuda_download_cube: not a CUDA accumulator");
  return a->download_cube(grid);
}

KernelTiming time_insert_kernel(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                                const recon::SampleBatch& batch, int device, int reps,
                                const InsertLaunchConfig& launch) {
  CudaAccumulator acc(settings, layout, 1, {device}, 1, launch);
  return acc.time_kernel(batch, reps);
}

// ---- InsertKernelBench ---------------------------------------------------------------------------

/// Two grids on one device: 0 holds the reference insertion, 1 is the scratch cube.
struct InsertKernelBench::Impl {
  CudaAccumulator acc;
  int spaces = 0;
  LaunchTimer timer; ///< on lane 0's stream; its events are made with `device` current (caller's guard)
  Impl(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout, int device,
       const InsertLaunchConfig& reference)
      : acc(settings, layout, 2, {device}, 1, reference), timer(acc.staged_stream()) {}
};

InsertKernelBench::InsertKernelBench(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                                     const recon::SampleBatch& batch, int device, const InsertLaunchConfig& reference) {
  DeviceGuard guard(device);
  impl_ = std::make_unique<Impl>(settings, layout, device, reference);
  impl_->spaces = batch.space_count();
  impl_->acc.stage(batch);
  impl_->acc.launch_staged(reference, 0);
  FROST_CUDA_CHECK(cudaStreamSynchronize(impl_->acc.staged_stream()));
}

InsertKernelBench::~InsertKernelBench() = default;

int InsertKernelBench::spaces() const { return impl_->spaces; }

double InsertKernelBench::sample_ms(const InsertLaunchConfig& config) {
  DeviceGuard guard(impl_->acc.staged_device());
  return impl_->timer.time_ms([&](cudaStream_t) { impl_->acc.launch_staged(config, 1); });
}

double InsertKernelBench::difference(const InsertLaunchConfig& config) {
  DeviceGuard guard(impl_->acc.staged_device());
  impl_->acc.zero_grid(1);
  impl_->acc.launch_staged(config, 1);
  return impl_->acc.grid_difference(0, 1);
}

} // namespace frost::cuda
