// FftPlan and FftBuffer handles: argument checks shared by every backend, then dispatch.
#include "frost/fft/plan.hpp"

#include <cstdint>

#include "frost/core/error.hpp"
#include "frost/fft/backend.hpp"
#include "frost/fft/buffer.hpp"

namespace frost::fft {

namespace {

bool overlaps(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  const auto pa = reinterpret_cast<std::uintptr_t>(a);
  const auto pb = reinterpret_cast<std::uintptr_t>(b);
  return pa < pb + b_bytes && pb < pa + a_bytes;
}

} // namespace

FftPlan::FftPlan(std::shared_ptr<const PlanImpl> impl) noexcept : impl_(std::move(impl)) {}
FftPlan::~FftPlan() = default;
FftPlan::FftPlan(FftPlan&&) noexcept = default;
FftPlan& FftPlan::operator=(FftPlan&&) noexcept = default;

const PlanImpl& FftPlan::impl() const {
  FROST_EXPECTS(impl_ != nullptr, "use of an empty FftPlan (default-constructed or a WisdomOnly miss)");
  return *impl_;
}

const FftSpec& FftPlan::spec() const { return impl().spec(); }
const PlanOptions& FftPlan::options() const { return impl().options(); }
Backend FftPlan::backend() const { return impl().backend(); }
int FftPlan::device() const { return impl().device(); }
std::size_t FftPlan::workspace_bytes() const { return impl().workspace_bytes(); }
std::string FftPlan::describe() const { return impl().describe(); }

bool FftPlan::destroys_input() const {
  const FftSpec& s = spec();
  if (s.placement == Placement::InPlace) return true;
  return s.kind == Kind::C2R && !options().preserve_input;
}

void FftPlan::execute(const void* in, void* out, const ExecOptions& opts) const {
  const PlanImpl& p = impl();
  const FftSpec& s = p.spec();
  if (in == nullptr || out == nullptr) detail::spec_error(s, "null data pointer passed to execute");
  if (s.placement == Placement::InPlace && in != out)
    detail::spec_error(s, "an in-place plan needs the same buffer for input and output");
  if (s.placement == Placement::OutOfPlace && in == out)
    detail::spec_error(s, "an out-of-place plan needs distinct input and output buffers");
  if (p.options().external_workspace && p.workspace_bytes() > 0 && opts.workspace == nullptr)
    detail::spec_error(s, "the plan was made with external_workspace but no workspace was passed (" +
                              std::to_string(p.workspace_bytes()) + " bytes needed)");
  p.run(in, out, opts);
}

void FftPlan::check_views(Kind kind, const void* in, const Shape& in_shape, std::size_t in_elem,
                          const void* out, const Shape& out_shape, std::size_t out_elem) const {
  const FftSpec& s = spec();
  if (s.kind != kind)
    detail::spec_error(s, "views of a " + to_string(kind) + " transform passed to a " +
                              to_string(s.kind) + " plan");
  if (in_shape != s.input_shape())
    detail::spec_error(s, "input view is " + frost::to_string(in_shape) + ", the plan needs " +
                              frost::to_string(s.input_shape()));
  if (out_shape != s.output_shape())
    detail::spec_error(s, "output view is " + frost::to_string(out_shape) + ", the plan needs " +
                              frost::to_string(s.output_shape()));
  if (s.placement == Placement::OutOfPlace && in != out &&
      overlaps(in, static_cast<std::size_t>(in_shape.total()) * in_elem, out,
               static_cast<std::size_t>(out_shape.total()) * out_elem))
    detail::spec_error(s, "input and output views of an out-of-place plan overlap");
}

void FftPlan::execute(View<const float> in, View<Complex> out, const ExecOptions& opts) const {
  check_views(Kind::R2C, in.data, in.shape, sizeof(float), out.data, out.shape, sizeof(Complex));
  execute(static_cast<const void*>(in.data), static_cast<void*>(out.data), opts);
}

void FftPlan::execute(View<Complex> in, View<float> out, const ExecOptions& opts) const {
  check_views(Kind::C2R, in.data, in.shape, sizeof(Complex), out.data, out.shape, sizeof(float));
  execute(static_cast<const void*>(in.data), static_cast<void*>(out.data), opts);
}

void FftPlan::execute(View<const Complex> in, View<float> out, const ExecOptions& opts) const {
  check_views(Kind::C2R, in.data, in.shape, sizeof(Complex), out.data, out.shape, sizeof(float));
  if (destroys_input())
    detail::spec_error(spec(), "const input given to a complex-to-real plan that overwrites its "
                               "input; plan with PlanOptions::preserve_input");
  execute(static_cast<const void*>(in.data), static_cast<void*>(out.data), opts);
}

void FftPlan::execute(View<const Complex> in, View<Complex> out, const ExecOptions& opts) const {
  check_views(Kind::C2C, in.data, in.shape, sizeof(Complex), out.data, out.shape, sizeof(Complex));
  execute(static_cast<const void*>(in.data), static_cast<void*>(out.data), opts);
}

// --- FftBuffer -------------------------------------------------------------------------------

FftBuffer::FftBuffer(std::unique_ptr<BufferImpl> impl) noexcept : impl_(std::move(impl)) {}
FftBuffer::~FftBuffer() = default;
FftBuffer::FftBuffer(FftBuffer&&) noexcept = default;
FftBuffer& FftBuffer::operator=(FftBuffer&&) noexcept = default;

void* FftBuffer::data() noexcept { return impl_ ? impl_->data() : nullptr; }
const void* FftBuffer::data() const noexcept { return impl_ ? impl_->data() : nullptr; }
std::size_t FftBuffer::bytes() const noexcept { return impl_ ? impl_->bytes() : 0; }
Backend FftBuffer::space() const {
  FROST_EXPECTS(impl_ != nullptr, "use of an empty FftBuffer");
  return impl_->space();
}

void FftBuffer::upload(const void* host, std::size_t n, const ExecOptions& opts) { upload_at(0, host, n, opts); }

void FftBuffer::download(void* host, std::size_t n, const ExecOptions& opts) const { download_from(0, host, n, opts); }

void FftBuffer::upload_at(std::size_t offset, const void* host, std::size_t n, const ExecOptions& opts) {
  FROST_EXPECTS(offset <= bytes() && n <= bytes() - offset,
                "upload of " + std::to_string(n) + " bytes at offset " + std::to_string(offset) +
                    " into a buffer of " + std::to_string(bytes()));
  if (n > 0) impl_->upload(host, offset, n, opts);
}

void FftBuffer::download_from(std::size_t offset, void* host, std::size_t n, const ExecOptions& opts) const {
  FROST_EXPECTS(offset <= bytes() && n <= bytes() - offset,
                "download of " + std::to_string(n) + " bytes at offset " + std::to_string(offset) +
                    " from a buffer of " + std::to_string(bytes()));
  if (n > 0) impl_->download(host, offset, n, opts);
}

void FftBuffer::copy_from(const FftBuffer& src, std::size_t n, const ExecOptions& opts) {
  FROST_EXPECTS(n <= bytes() && n <= src.bytes(), "buffer copy larger than a buffer");
  FROST_EXPECTS(n == 0 || space() == src.space(), "buffer copy between different memory spaces");
  if (n > 0) impl_->copy_from(src.data(), n, opts);
}

void FftBuffer::zero(const ExecOptions& opts) {
  if (impl_) impl_->zero(opts);
}

} // namespace frost::fft
