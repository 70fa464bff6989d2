// The cuFFT Measurer and scratch model of the size advisor (docs/fft_advisor.md#the-cufft-measurer).
//
// One measure() call, per docs/fft_advisor.md#measurement-protocol:
//  1. cufftCreate, auto-allocation off, cufftMakePlanMany64 (any size, float and double) with the
//     layout of FftSpec (x fastest; in-place real rows padded to 2(x/2+1)); planning time on a
//     steady clock around the call plus a device synchronisation; cufftGetSize read back; the work
//     area allocated once and attached (cufftSetWorkArea); the plan bound to the measurer's stream.
//  2. Input (and output, out of place) allocated; the input filled on the device with
//     deterministic values in [-1, 1) from protocol.seed.
//  3. protocol.warmup untimed executions.
//  4. Samples: one execution between two CUDA events on the stream, until >= reps samples and
//     >= min_total_ms of summed time, at most max_samples. Before every sample, outside the timed
//     interval: the input is regenerated (the same values: in-place and C2R transforms destroy
//     their input, so every sample sees identical data), with cold_cache a buffer of twice the
//     L2 size is written, and a 50 us spin kernel keeps the GPU busy while the host enqueues the
//     timed execution (no host launch latency inside the timed interval).
//  5. median / mean / min / std per execution and per signal.
//  6. Everything released before returning; every CUDA and cuFFT status checked. Failures come
//     back as status "error" with the text, never as an exception.
#include <cuda_runtime.h>
#include <cufft.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/cuda/check.hpp"
#include "frost/fft/advisor_backend.hpp"
#include "measure_kernels.hpp"

namespace frost::fft {

namespace {

/// GPU time queued ahead of every timed execution (see detail::spin_async).
constexpr unsigned kLeadMicroseconds = 50;

[[noreturn]] void fail(const std::string& what) { throw Error(ExitCode::Device, what); }

void cuda_ok(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    fail(std::string(what) + ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

void cufft_ok(cufftResult status, const char* what) {
  if (status != CUFFT_SUCCESS) fail(std::string(what) + ": " + cuda::cufft_status_name(status));
}

std::string describe(const Candidate& c) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%lldx%lldx%lld b%lld %s %s %s %s", static_cast<long long>(c.size.x),
                static_cast<long long>(c.size.y), static_cast<long long>(c.size.z), static_cast<long long>(c.batch),
                to_string(c.kind).c_str(), to_string(c.direction).c_str(), to_string(c.placement).c_str(),
                to_string(c.precision).c_str());
  return buf;
}

/// Makes `device` current for a scope; restores the previous one (no throw in the destructor).
class OnDevice {
public:
  explicit OnDevice(int device) {
    cuda_ok(cudaGetDevice(&previous_), "cudaGetDevice");
    if (previous_ != device) cuda_ok(cudaSetDevice(device), "cudaSetDevice");
  }
  ~OnDevice() { cudaSetDevice(previous_); }
  OnDevice(const OnDevice&) = delete;
  OnDevice& operator=(const OnDevice&) = delete;

private:
  int previous_ = 0;
};

/// The arguments of cufftMakePlanMany64 / cufftGetSizeMany64 for one candidate, plus byte counts.
struct Layout {
  cufftType type = CUFFT_R2C;
  int rank = 1;
  long long n[3] = {1, 1, 1}, inembed[3] = {1, 1, 1}, onembed[3] = {1, 1, 1};
  long long idist = 1, odist = 1, batch = 1;
  std::size_t in_bytes = 0, out_bytes = 0; ///< whole batch, in its element type
  std::size_t scalar_bytes = 4;            ///< float or double
  bool in_place = false;
  int direction = CUFFT_FORWARD;
  bool fits_int = true;                    ///< every argument representable for the 32-bit API

  std::size_t input_scalars() const { return in_bytes / scalar_bytes; }
};

/// Signals per execution: the candidate's batch for a "many" plan, one signal otherwise
/// (docs/fft_advisor.md#options-batch-and-memory).
index_t signals_per_exec(const Candidate& c) { return c.batched ? c.batch : 1; }

Layout layout_of(const Candidate& c) {
  if (c.size.x < 1 || c.size.y < 1 || c.size.z < 1 || c.batch < 1) fail("invalid configuration " + describe(c));
  const bool dbl = c.precision == Precision::F64;
  Layout L;
  L.scalar_bytes = dbl ? sizeof(double) : sizeof(float);
  switch (c.kind) {
    case Kind::R2C: L.type = dbl ? CUFFT_D2Z : CUFFT_R2C; break;
    case Kind::C2R: L.type = dbl ? CUFFT_Z2D : CUFFT_C2R; break;
    case Kind::C2C: L.type = dbl ? CUFFT_Z2Z : CUFFT_C2C; break;
  }
  // R2C is always forward and C2R always inverse, whatever `direction` says (as Candidate::spec()).
  L.direction = c.direction == Direction::Forward ? CUFFT_FORWARD : CUFFT_INVERSE;
  L.in_place = c.placement == Placement::InPlace;
  // FftSpec owns the layout convention (spec.hpp); its shapes count elements of either type.
  FftSpec s;
  s.x = c.size.x;
  s.y = c.size.y;
  s.z = c.size.z;
  s.batch = signals_per_exec(c);
  s.kind = c.kind;
  s.direction = c.kind == Kind::R2C ? Direction::Forward : c.kind == Kind::C2R ? Direction::Inverse : c.direction;
  s.placement = c.placement;
  s.precision = c.precision;
  const Shape in = s.input_shape(), out = s.output_shape();
  const long double complex_b = 2.0L * L.scalar_bytes;
  const long double in_b = static_cast<long double>(in.total()) * (s.real_input() ? L.scalar_bytes : complex_b);
  const long double out_b = static_cast<long double>(out.total()) * (s.real_output() ? L.scalar_bytes : complex_b);
  if (in_b > static_cast<long double>(INT64_MAX) / 4 || out_b > static_cast<long double>(INT64_MAX) / 4)
    fail("configuration too large to address: " + describe(c));
  L.in_bytes = static_cast<std::size_t>(in_b);
  L.out_bytes = static_cast<std::size_t>(out_b);
  L.rank = s.rank();
  const long long all_n[3] = {s.z, s.y, s.x};
  const long long all_in[3] = {in.z, in.y, in.x};
  const long long all_out[3] = {out.z, out.y, out.x};
  for (int d = 0; d < L.rank; ++d) {
    L.n[d] = all_n[3 - L.rank + d];
    L.inembed[d] = all_in[3 - L.rank + d];
    L.onembed[d] = all_out[3 - L.rank + d];
  }
  L.idist = in.x * in.y * in.z;
  L.odist = out.x * out.y * out.z;
  L.batch = s.batch;
  const long long lim = INT_MAX;
  L.fits_int = L.idist <= lim && L.odist <= lim && L.batch <= lim && L.idist * L.batch <= lim &&
               L.odist * L.batch <= lim;
  return L;
}

/// The documented worst case (D9): 8 complex elements per signal element times the batch.
std::size_t worst_case_bytes(const Candidate& c) {
  const long double b = 8.0L * 2.0L * (c.precision == Precision::F64 ? 8 : 4) *
                        static_cast<long double>(c.size.x) * c.size.y * c.size.z * signals_per_exec(c);
  return b >= static_cast<long double>(std::numeric_limits<std::size_t>::max()) ? std::numeric_limits<std::size_t>::max()
                                                                                 : static_cast<std::size_t>(b);
}

/// A cuFFT handle destroyed at scope exit.
struct Handle {
  cufftHandle h{};
  bool valid = false;
  Handle() {
    cufft_ok(cufftCreate(&h), "cufftCreate");
    valid = true;
  }
  ~Handle() {
    if (valid) cufftDestroy(h);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
};

/// Device memory freed at scope exit (cudaFree failures are ignored: nothing left to do).
struct DeviceBytes {
  void* p = nullptr;
  DeviceBytes() = default;
  DeviceBytes(std::size_t bytes, const char* what) {
    if (bytes == 0) return;
    const cudaError_t st = cudaMalloc(&p, bytes);
    if (st != cudaSuccess) {
      p = nullptr;
      cudaGetLastError(); // out of memory is not sticky: clear it for the next candidate
      fail(std::string("cudaMalloc of ") + std::to_string(bytes) + " bytes for the " + what + ": " +
           cudaGetErrorName(st));
    }
  }
  ~DeviceBytes() {
    if (p) cudaFree(p);
  }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
  DeviceBytes(DeviceBytes&& o) noexcept : p(o.p) { o.p = nullptr; }
};

/// Waits for the stream before the buffers above it on the stack are freed (also on errors).
struct StreamDrain {
  cudaStream_t s;
  ~StreamDrain() { cudaStreamSynchronize(s); }
};

void exec(const Layout& L, cufftHandle h, void* in, void* out) {
  cufftResult r = CUFFT_SUCCESS;
  switch (L.type) {
    case CUFFT_R2C: r = cufftExecR2C(h, static_cast<cufftReal*>(in), static_cast<cufftComplex*>(out)); break;
    case CUFFT_C2R: r = cufftExecC2R(h, static_cast<cufftComplex*>(in), static_cast<cufftReal*>(out)); break;
    case CUFFT_C2C:
      r = cufftExecC2C(h, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out), L.direction);
      break;
    case CUFFT_D2Z:
      r = cufftExecD2Z(h, static_cast<cufftDoubleReal*>(in), static_cast<cufftDoubleComplex*>(out));
      break;
    case CUFFT_Z2D:
      r = cufftExecZ2D(h, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleReal*>(out));
      break;
    case CUFFT_Z2Z:
      r = cufftExecZ2Z(h, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleComplex*>(out), L.direction);
      break;
    default: fail("unknown cuFFT type");
  }
  cufft_ok(r, "cufftExec");
}

void fill_input(const Layout& L, void* in, std::uint32_t seed, cudaStream_t s) {
  if (L.scalar_bytes == sizeof(double))
    detail::fill_uniform_async(static_cast<double*>(in), L.input_scalars(), seed, s);
  else
    detail::fill_uniform_async(static_cast<float*>(in), L.input_scalars(), seed, s);
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

/// max(cufftEstimateMany, cufftGetSizeMany64 on a fresh handle), per
/// docs/fft_advisor.md#options-batch-and-memory.
class CufftScratchModel final : public ScratchModel {
public:
  explicit CufftScratchModel(int device) : device_(device) {}

  std::size_t scratch_bytes(const Candidate& c) const override {
    try {
      std::lock_guard<std::mutex> lock(mutex_);
      OnDevice on(device_);
      Layout L = layout_of(c);
      std::size_t best = 0;
      bool any = false;
      if (L.fits_int) {
        int n[3], ie[3], oe[3];
        for (int d = 0; d < L.rank; ++d) {
          n[d] = static_cast<int>(L.n[d]);
          ie[d] = static_cast<int>(L.inembed[d]);
          oe[d] = static_cast<int>(L.onembed[d]);
        }
        std::size_t est = 0;
        if (cufftEstimateMany(L.rank, n, ie, 1, static_cast<int>(L.idist), oe, 1, static_cast<int>(L.odist), L.type,
                              static_cast<int>(L.batch), &est) == CUFFT_SUCCESS) {
          best = std::max(best, est);
          any = true;
        }
      }
      {
        Handle h;
        std::size_t size = 0;
        if (cufftGetSizeMany64(h.h, L.rank, L.n, L.inembed, 1, L.idist, L.onembed, 1, L.odist, L.type, L.batch,
                               &size) == CUFFT_SUCCESS) {
          best = std::max(best, size);
          any = true;
        }
      }
      cudaGetLastError();
      return any ? best : worst_case_bytes(c);
    } catch (const std::exception&) {
      cudaGetLastError();
      return worst_case_bytes(c); // the library could not tell: assume the documented worst case
    }
  }
  std::string name() const override { return "device"; }

private:
  int device_;
  mutable std::mutex mutex_;
};

class CufftMeasurer final : public Measurer {
public:
  explicit CufftMeasurer(int device) : device_(device) {
    try {
      init();
    } catch (...) {
      release();
      throw;
    }
  }

  ~CufftMeasurer() override { release(); }

private:
  void init() {
    OnDevice on(device_);
    cuda_ok(cudaFree(nullptr), "creating the CUDA context");
    info_ = cuda_device_info(device_);
    if (!info_.valid) fail("cannot query CUDA device " + std::to_string(device_));
    int l2 = 0;
    cuda_ok(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device_), "cudaDeviceGetAttribute(L2)");
    l2_bytes_ = l2 > 0 ? static_cast<std::size_t>(l2) : info_.l2_bytes;
    cuda_ok(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    cuda_ok(cudaEventCreate(&start_), "cudaEventCreate");
    cuda_ok(cudaEventCreate(&stop_), "cudaEventCreate");
    flush_words_ = 2 * l2_bytes_ / sizeof(std::uint32_t);
    if (flush_words_ > 0) cuda_ok(cudaMalloc(&flush_, flush_words_ * sizeof(std::uint32_t)), "cudaMalloc(L2 flush)");
    int v = 0;
    cufft_version_ = cufftGetVersion(&v) == CUFFT_SUCCESS ? v : 0;
  }

  void release() noexcept {
    int previous = 0;
    if (cudaGetDevice(&previous) != cudaSuccess) previous = device_;
    cudaSetDevice(device_);
    if (stream_) cudaStreamSynchronize(stream_);
    if (flush_) cudaFree(flush_);
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
    if (stream_) cudaStreamDestroy(stream_);
    flush_ = nullptr;
    start_ = stop_ = nullptr;
    stream_ = nullptr;
    cudaGetLastError();
    cudaSetDevice(previous);
  }

public:
  Measurement measure(const Candidate& c, const Protocol& p) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Measurement m;
    try {
      measure_locked(c, p, m);
    } catch (const std::exception& e) {
      m = Measurement{};
      m.status = "error";
      m.error = e.what();
      // Clear a non-sticky error so that the next candidate starts clean; a sticky one (the
      // context is lost) will fail every later call with its own text.
      cudaGetLastError();
    } catch (...) {
      m = Measurement{};
      m.status = "error";
      m.error = "unknown error while measuring " + describe(c);
      cudaGetLastError();
    }
    return m;
  }

  std::string device_identity() const override {
    const std::size_t gib = info_.total_memory >> 30;
    return "cuda|" + info_.name + "|" + std::to_string(info_.cc_major) + "." + std::to_string(info_.cc_minor) + "|" +
           std::to_string(info_.sm_count) + "|" + std::to_string(gib);
  }
  std::string library_versions() const override {
    return "driver " + std::to_string(info_.driver_version) + "|runtime " + std::to_string(info_.runtime_version) +
           "|cufft " + std::to_string(cufft_version_);
  }
  std::string device_uuid() const override { return info_.uuid; }
  std::size_t default_memory_limit() const override {
    try {
      OnDevice on(device_);
      std::size_t free_b = 0, total_b = 0;
      cuda_ok(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
      return free_b - free_b / 20; // 5 % reserve
    } catch (const std::exception&) {
      cudaGetLastError();
      return 0;
    }
  }
  std::unique_ptr<ScratchModel> device_scratch_model() const override {
    return std::make_unique<CufftScratchModel>(device_);
  }

private:
  void measure_locked(const Candidate& c, const Protocol& p, Measurement& m) {
    if (p.reps < 1 || p.warmup < 0 || p.max_samples < 1) fail("invalid protocol (reps >= 1, warmup >= 0, max_samples >= 1)");
    OnDevice on(device_);
    cudaGetLastError(); // a stale non-sticky error of earlier code is not this candidate's failure
    const Layout L = layout_of(c);

    // 1. Plan, without a library-owned work area.
    Handle plan;
    cufft_ok(cufftSetAutoAllocation(plan.h, 0), "cufftSetAutoAllocation");
    std::size_t work = 0;
    Layout args = L; // cufftMakePlanMany64 takes non-const arrays
    const auto t0 = std::chrono::steady_clock::now();
    cufft_ok(cufftMakePlanMany64(plan.h, args.rank, args.n, args.inembed, 1, args.idist, args.onembed, 1, args.odist,
                                 args.type, args.batch, &work),
             "cufftMakePlanMany64");
    cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize after planning");
    m.plan_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::size_t actual = 0;
    cufft_ok(cufftGetSize(plan.h, &actual), "cufftGetSize");
    m.plan_bytes_actual = actual;
    DeviceBytes work_area(std::max(work, actual), "work area");
    if (work_area.p) cufft_ok(cufftSetWorkArea(plan.h, work_area.p), "cufftSetWorkArea");
    cufft_ok(cufftSetStream(plan.h, stream_), "cufftSetStream");

    // 2. Data.
    DeviceBytes in(L.in_place ? std::max(L.in_bytes, L.out_bytes) : L.in_bytes, "input");
    DeviceBytes out_buf(L.in_place ? 0 : L.out_bytes, "output");
    void* out = L.in_place ? in.p : out_buf.p;
    StreamDrain drain{stream_}; // declared after the buffers: runs before they are freed

    // 3. Warm-up.
    for (int i = 0; i < p.warmup; ++i) {
      fill_input(L, in.p, p.seed, stream_);
      exec(L, plan.h, in.p, out);
    }
    cuda_ok(cudaStreamSynchronize(stream_), "warm-up executions");

    // 4. Samples.
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(std::max(p.reps, 16)));
    double total = 0;
    std::uint32_t round = 0;
    while (static_cast<int>(ms.size()) < p.max_samples &&
           (static_cast<int>(ms.size()) < p.reps || total < p.min_total_ms)) {
      fill_input(L, in.p, p.seed, stream_);
      if (p.cold_cache && flush_) detail::scribble_async(flush_, flush_words_, ++round, stream_);
      detail::spin_async(kLeadMicroseconds, stream_);
      cuda_ok(cudaEventRecord(start_, stream_), "cudaEventRecord");
      exec(L, plan.h, in.p, out);
      cuda_ok(cudaEventRecord(stop_, stream_), "cudaEventRecord");
      cuda_ok(cudaEventSynchronize(stop_), "executing the transform");
      float t = 0;
      cuda_ok(cudaEventElapsedTime(&t, start_, stop_), "cudaEventElapsedTime");
      ms.push_back(t);
      total += t;
    }
    cuda_ok(cudaGetLastError(), "after the timed executions");

    // 5. Statistics.
    const double n = static_cast<double>(ms.size());
    const double mean = total / n;
    double var = 0;
    for (double v : ms) var += (v - mean) * (v - mean);
    const double sd = ms.size() > 1 ? std::sqrt(var / (n - 1)) : 0.0;
    const double per = 1.0 / static_cast<double>(L.batch);
    const double med = median_of(ms);
    m.samples = static_cast<int>(ms.size());
    m.ms_per_exec = med;
    m.median_ms_per_signal = med * per;
    m.mean_ms_per_signal = mean * per;
    m.min_ms_per_signal = *std::min_element(ms.begin(), ms.end()) * per;
    m.std_ms_per_signal = sd * per;
    m.status = "ok";
    // 6. Release: drain, buffers, work area, plan (reverse declaration order).
  }

  int device_;
  CudaDeviceInfo info_;
  int cufft_version_ = 0;
  std::size_t l2_bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::uint32_t* flush_ = nullptr;
  std::size_t flush_words_ = 0;
  std::mutex mutex_;
};

} // namespace

std::unique_ptr<Measurer> make_cufft_measurer(int device) {
  int count = 0;
  const cudaError_t st = cudaGetDeviceCount(&count);
  if (st != cudaSuccess) {
    cudaGetLastError();
    throw Error(ExitCode::Device, std::string("no usable CUDA device: ") + cudaGetErrorString(st));
  }
  if (device < 0 || device >= count)
    throw Error(ExitCode::Device,
                "CUDA device " + std::to_string(device) + " does not exist (" + std::to_string(count) + " visible)");
  return std::make_unique<CufftMeasurer>(device);
}

} // namespace frost::fft
