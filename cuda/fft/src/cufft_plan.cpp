// cuFFT plans with the same layout as the FFTW backend (strides written out explicitly).
#include "cufft_plan.hpp"

#include <sstream>

namespace frost::cuda {

CurrentDevice::CurrentDevice(int device) {
  int current = 0;
  FROST_CUDA_CHECK(cudaGetDevice(&current));
  if (current != device) {
    FROST_CUDA_CHECK(cudaSetDevice(device));
    previous_ = current;
  }
}

CurrentDevice::~CurrentDevice() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

namespace {

cufftType type_of(fft::Kind k) {
  switch (k) {
    case fft::Kind::R2C: return CUFFT_R2C;
    case fft::Kind::C2R: return CUFFT_C2R;
    case fft::Kind::C2C: return CUFFT_C2C;
  }
  return CUFFT_C2C;
}

} // namespace

CufftPlan::CufftPlan(const fft::FftSpec& spec, const fft::PlanOptions& opts, int device)
    : PlanImpl(spec, opts, fft::Backend::Cuda, device) {
  CurrentDevice on(device);
  FROST_CUFFT_CHECK(cufftCreate(&handle_));
  has_handle_ = true;
  try {
    make_plan();
    FROST_CUDA_CHECK(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming));
    if (spec.kind == fft::Kind::C2R && opts.preserve_input) {
      scratch_bytes_ = spec.input_bytes();
      if (!opts.external_workspace) scratch_ = DeviceBuffer<std::byte>(scratch_bytes_);
    }
  } catch (...) {
    if (done_) cudaEventDestroy(done_);
    cufftDestroy(handle_);
    throw;
  }
}

void CufftPlan::make_plan() {
  const fft::FftSpec& s = spec();
  if (options().external_workspace) FROST_CUFFT_CHECK(cufftSetAutoAllocation(handle_, 0));
  const Shape in = s.input_shape(), out = s.output_shape();
  const long long all_n[3] = {s.z, s.y, s.x};
  const long long all_in[3] = {in.z, in.y, in.x};
  const long long all_out[3] = {out.z, out.y, out.x};
  const int rank = s.rank();
  long long n[3], inembed[3], onembed[3];
  for (int d = 0; d < rank; ++d) {
    n[d] = all_n[3 - rank + d];
    inembed[d] = all_in[3 - rank + d];
    onembed[d] = all_out[3 - rank + d];
  }
  const long long idist = in.x * in.y * in.z, odist = out.x * out.y * out.z;
  std::size_t work = 0;
  FROST_CUFFT_CHECK(cufftMakePlanMany64(handle_, rank, n, inembed, 1, idist, onembed, 1, odist,
                                        type_of(s.kind), s.batch, &work));
  work_bytes_ = work;
}

CufftPlan::~CufftPlan() {
  try {
    CurrentDevice on(device());
    if (done_) cudaEventDestroy(done_);
    if (has_handle_) cufftDestroy(handle_);
  } catch (...) {
    // destructors never throw; a failing device leaves nothing to release
  }
}

std::size_t CufftPlan::workspace_bytes() const {
  return scratch_bytes_ > 0 ? fft::detail::align256(work_bytes_) + scratch_bytes_ : work_bytes_;
}

void CufftPlan::run(const void* in, void* out, const fft::ExecOptions& opts) const {
  CurrentDevice on(device());
  const auto stream = static_cast<cudaStream_t>(opts.stream);
  auto* ws = static_cast<std::byte*>(opts.workspace);
  const bool external = options().external_workspace;
  std::lock_guard<std::mutex> lock(mutex_);
  if (ran_ && stream != last_stream_) FROST_CUDA_CHECK(cudaStreamWaitEvent(stream, done_, 0));
  if (external && work_bytes_ > 0) FROST_CUFFT_CHECK(cufftSetWorkArea(handle_, ws));
  FROST_CUFFT_CHECK(cufftSetStream(handle_, stream));
  void* src = const_cast<void*>(in);
  if (scratch_bytes_ > 0) {
    void* copy = external ? static_cast<void*>(ws + fft::detail::align256(work_bytes_))
                          : static_cast<void*>(scratch_.data());
    FROST_CUDA_CHECK(cudaMemcpyAsync(copy, in, scratch_bytes_, cudaMemcpyDeviceToDevice, stream));
    src = copy;
  }
  switch (spec().kind) {
    case fft::Kind::R2C:
      FROST_CUFFT_CHECK(cufftExecR2C(handle_, static_cast<cufftReal*>(src), static_cast<cufftComplex*>(out)));
      break;
    case fft::Kind::C2R:
      FROST_CUFFT_CHECK(cufftExecC2R(handle_, static_cast<cufftComplex*>(src), static_cast<cufftReal*>(out)));
      break;
    case fft::Kind::C2C: {
      const int dir = spec().direction == fft::Direction::Forward ? CUFFT_FORWARD : CUFFT_INVERSE;
      FROST_CUFFT_CHECK(cufftExecC2C(handle_, static_cast<cufftComplex*>(src), static_cast<cufftComplex*>(out), dir));
      break;
    }
  }
  FROST_CUDA_CHECK(cudaEventRecord(done_, stream));
  last_stream_ = stream;
  ran_ = true;
}

std::string CufftPlan::describe() const {
  std::ostringstream o;
  o << "cuda:" << device() << " cufft " << to_string(spec()) << ", work area " << work_bytes_ << " B ("
    << (options().external_workspace ? "caller" : "plan") << "-owned)"
    << (options().preserve_input ? ", preserves input" : "");
  return o.str();
}

} // namespace frost::cuda
