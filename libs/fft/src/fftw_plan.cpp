// FFTW plans through the guru64 interface: 64-bit sizes and explicit strides, so the layout is
// written out once here and matches cuFFT's (spec.hpp) element by element.
#include "fftw_plan.hpp"

#include <cstring>
#include <sstream>

#include "fftw_global.hpp"
#include "frost/core/error.hpp"

namespace frost::fft::detail {

namespace {

unsigned rigor_flags(FftRigor r) {
  switch (r) {
    case FftRigor::Estimate: return FFTW_ESTIMATE;
    case FftRigor::Measure: return FFTW_MEASURE;
    case FftRigor::Patient: return FFTW_PATIENT;
    case FftRigor::Exhaustive: return FFTW_EXHAUSTIVE;
    case FftRigor::WisdomOnly: return FFTW_MEASURE | FFTW_WISDOM_ONLY;
  }
  return FFTW_ESTIMATE;
}

/// Transform and batch dimensions, slowest first, with strides in elements of each array's type.
struct Layout {
  int rank = 0;
  fftwf_iodim64 dims[3]{};
  fftwf_iodim64 batch{};
};

Layout layout_of(const FftSpec& s) {
  const Shape in = s.input_shape(), out = s.output_shape();
  const index_t n[3] = {s.z, s.y, s.x};
  const index_t in_stride[3] = {in.x * in.y, in.x, 1};
  const index_t out_stride[3] = {out.x * out.y, out.x, 1};
  Layout l;
  l.rank = s.rank();
  for (int d = 0; d < l.rank; ++d) {
    const int k = 3 - l.rank + d;
    l.dims[d] = {n[k], in_stride[k], out_stride[k]};
  }
  l.batch = {s.batch, in.x * in.y * in.z, out.x * out.y * out.z};
  return l;
}

/// Plans on fresh aligned arrays; caller holds the FFTW lock.
fftwf_plan plan_locked(const FftSpec& s, unsigned flags) {
  HostBuffer<std::byte> a(s.placement == Placement::InPlace ? s.data_bytes() : s.input_bytes());
  HostBuffer<std::byte> b(s.placement == Placement::InPlace ? 0 : s.output_bytes());
  void* in = a.data();
  void* out = s.placement == Placement::InPlace ? a.data() : b.data();
  const Layout l = layout_of(s);
  if (s.kind == Kind::R2C)
    return fftwf_plan_guru64_dft_r2c(l.rank, l.dims, 1, &l.batch, static_cast<float*>(in),
                                     static_cast<fftwf_complex*>(out), flags);
  if (s.kind == Kind::C2R)
    return fftwf_plan_guru64_dft_c2r(l.rank, l.dims, 1, &l.batch, static_cast<fftwf_complex*>(in),
                                     static_cast<float*>(out), flags);
  const int sign = s.direction == Direction::Forward ? FFTW_FORWARD : FFTW_BACKWARD;
  return fftwf_plan_guru64_dft(l.rank, l.dims, 1, &l.batch, static_cast<fftwf_complex*>(in),
                               static_cast<fftwf_complex*>(out), sign, flags);
}

fftwf_plan plan_with(const FftSpec& s, const PlanOptions& o, unsigned extra) {
  // Multi-dimensional c2r cannot preserve its input in FFTW; everything else can and must.
  unsigned flags = rigor_flags(o.rigor) | extra;
  flags |= s.kind == Kind::C2R ? FFTW_DESTROY_INPUT : FFTW_PRESERVE_INPUT;
  std::lock_guard<std::mutex> lock(fftw_mutex());
  fftwf_plan_with_nthreads(o.threads);
  fftwf_set_timelimit(o.time_limit_s < 0 ? FFTW_NO_TIMELIMIT : o.time_limit_s);
  return plan_locked(s, flags);
}

bool aligned(const void* p) { return fftwf_alignment_of(static_cast<float*>(const_cast<void*>(p))) == 0; }

} // namespace

std::shared_ptr<const FftwPlan> FftwPlan::create(const FftSpec& spec, const PlanOptions& opts) {
  fftw_init();
  fftwf_plan p = plan_with(spec, opts, 0);
  if (p == nullptr) {
    if (opts.rigor == FftRigor::WisdomOnly) return nullptr;
    spec_error(spec, "FFTW could not make a plan");
  }
  return std::make_shared<const FftwPlan>(spec, opts, p);
}

FftwPlan::FftwPlan(const FftSpec& spec, const PlanOptions& opts, fftwf_plan aligned_plan)
    : PlanImpl(spec, opts, Backend::Cpu, -1), aligned_(aligned_plan) {
  if (spec.kind == Kind::C2R && opts.preserve_input) {
    scratch_bytes_ = spec.input_bytes();
    if (!opts.external_workspace) scratch_ = HostBuffer<std::byte>(scratch_bytes_);
  }
}

FftwPlan::~FftwPlan() {
  std::lock_guard<std::mutex> lock(fftw_mutex()); // fftwf_destroy_plan is a planner call
  fftwf_destroy_plan(aligned_);
  if (unaligned_) fftwf_destroy_plan(unaligned_);
}

fftwf_plan FftwPlan::plan_for(const void* in, const void* out) const {
  if (aligned(in) && aligned(out)) return aligned_;
  std::call_once(unaligned_once_, [this] {
    PlanOptions o = options();
    fftwf_plan p = plan_with(spec(), o, FFTW_UNALIGNED);
    if (p == nullptr && o.rigor == FftRigor::WisdomOnly) {
      o.rigor = FftRigor::Estimate; // wisdom covered the aligned problem only
      p = plan_with(spec(), o, FFTW_UNALIGNED);
    }
    if (p == nullptr) spec_error(spec(), "FFTW could not make a plan for unaligned arrays");
    unaligned_ = p;
  });
  return unaligned_;
}

void FftwPlan::execute_raw(fftwf_plan p, void* in, void* out) const {
  switch (spec().kind) {
    case Kind::R2C:
      fftwf_execute_dft_r2c(p, static_cast<float*>(in), static_cast<fftwf_complex*>(out));
      break;
    case Kind::C2R:
      fftwf_execute_dft_c2r(p, static_cast<fftwf_complex*>(in), static_cast<float*>(out));
      break;
    case Kind::C2C:
      fftwf_execute_dft(p, static_cast<fftwf_complex*>(in), static_cast<fftwf_complex*>(out));
      break;
  }
}

void FftwPlan::run(const void* in, void* out, const ExecOptions& opts) const {
  if (scratch_bytes_ == 0) {
    // Only C2R may write to its input, and then the caller accepted that (no preserve_input).
    void* src = const_cast<void*>(in);
    execute_raw(plan_for(src, out), src, out);
    return;
  }
  std::unique_lock<std::mutex> lock(scratch_mutex_, std::defer_lock);
  void* copy = opts.workspace;
  if (!options().external_workspace) {
    lock.lock();
    copy = scratch_.data();
  }
  std::memcpy(copy, in, scratch_bytes_);
  execute_raw(plan_for(copy, out), copy, out);
}

std::string FftwPlan::describe() const {
  double add = 0, mul = 0, fma = 0;
  fftwf_flops(aligned_, &add, &mul, &fma);
  std::ostringstream o;
  o << "cpu fftw " << to_string(spec()) << ", " << to_string(options().rigor) << ", "
    << options().threads << " thread" << (options().threads == 1 ? "" : "s") << ", workspace "
    << scratch_bytes_ << " B" << (options().preserve_input ? ", preserves input" : "") << ", "
    << static_cast<long long>(add + mul + 2 * fma) << " flops";
  return o.str();
}

} // namespace frost::fft::detail
