// FftSpec: layout arithmetic, validation, the text key and its parser, hashing.
#include "frost/fft/spec.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>

#include "frost/core/error.hpp"
#include "frost/fft/backend.hpp"

namespace frost::fft {

namespace {

std::size_t element_bytes(bool real) { return real ? sizeof(float) : sizeof(Complex); }

/// Shape of the real side: padded rows in place (room for the half spectrum), dense otherwise.
Shape real_side(const FftSpec& s) {
  const index_t row = s.placement == Placement::InPlace ? 2 * (s.x / 2 + 1) : s.x;
  return {row, s.y, s.z, s.batch};
}

Shape complex_side(const FftSpec& s) {
  if (s.kind == Kind::C2C) return s.logical_shape();
  return {s.x / 2 + 1, s.y, s.z, s.batch};
}

std::size_t bytes_of(const Shape& shape, bool real) {
  return static_cast<std::size_t>(shape.total()) * element_bytes(real);
}

[[noreturn]] void bad_text(const std::string& text, const std::string& why) {
  throw_usage_error("cannot read FFT spec '" + text + "': " + why);
}

} // namespace

FftSpec FftSpec::r2c(const Shape& s, Placement p) {
  return {s.x, s.y, s.z, s.n, Kind::R2C, Direction::Forward, p, Precision::F32};
}
FftSpec FftSpec::c2r(const Shape& s, Placement p) {
  return {s.x, s.y, s.z, s.n, Kind::C2R, Direction::Inverse, p, Precision::F32};
}
FftSpec FftSpec::c2c(const Shape& s, Direction d, Placement p) {
  return {s.x, s.y, s.z, s.n, Kind::C2C, d, p, Precision::F32};
}

FftSpec FftSpec::inverse() const {
  FftSpec r = *this;
  switch (kind) {
    case Kind::R2C: r.kind = Kind::C2R; r.direction = Direction::Inverse; break;
    case Kind::C2R: r.kind = Kind::R2C; r.direction = Direction::Forward; break;
    case Kind::C2C:
      r.direction = direction == Direction::Forward ? Direction::Inverse : Direction::Forward;
      break;
  }
  return r;
}

int FftSpec::rank() const {
  if (z > 1) return 3;
  if (y > 1) return 2;
  return 1;
}

Shape FftSpec::input_shape() const {
  return kind == Kind::R2C ? real_side(*this) : complex_side(*this);
}
Shape FftSpec::output_shape() const {
  return kind == Kind::C2R ? real_side(*this) : complex_side(*this);
}
std::size_t FftSpec::input_bytes() const { return bytes_of(input_shape(), real_input()); }
std::size_t FftSpec::output_bytes() const { return bytes_of(output_shape(), real_output()); }
std::size_t FftSpec::data_bytes() const {
  return placement == Placement::InPlace ? std::max(input_bytes(), output_bytes())
                                         : input_bytes() + output_bytes();
}

void FftSpec::validate() const {
  if (x < 1 || y < 1 || z < 1)
    detail::spec_error(*this, "every size must be >= 1 (got " + std::to_string(x) + "x" +
                                  std::to_string(y) + "x" + std::to_string(z) + ")");
  if (batch < 1) detail::spec_error(*this, "batch must be >= 1 (got " + std::to_string(batch) + ")");
  if (kind == Kind::R2C && direction != Direction::Forward)
    detail::spec_error(*this, "a real-to-complex transform is always forward");
  if (kind == Kind::C2R && direction != Direction::Inverse)
    detail::spec_error(*this, "a complex-to-real transform is always inverse");
  if (precision != Precision::F32)
    detail::spec_error(*this, "only single precision (f32) is implemented");
  // Both libraries index with 64-bit integers (guru64 / MakePlanMany64); this guards the byte
  // arithmetic above from overflow on nonsense sizes.
  const long double bytes = static_cast<long double>(x) * y * z * batch * 16;
  if (bytes > static_cast<long double>(INT64_MAX) / 4)
    detail::spec_error(*this, "the transform is too large to address");
}

std::string to_string(Backend b) { return b == Backend::Cpu ? "cpu" : "cuda"; }
std::string to_string(Kind k) {
  switch (k) {
    case Kind::R2C: return "r2c";
    case Kind::C2R: return "c2r";
    case Kind::C2C: return "c2c";
  }
  return "?";
}
std::string to_string(Direction d) { return d == Direction::Forward ? "fwd" : "inv"; }
std::string to_string(Placement p) { return p == Placement::OutOfPlace ? "oop" : "inplace"; }
std::string to_string(Precision p) { return p == Precision::F32 ? "f32" : "f64"; }
std::string to_string(FftRigor r) {
  switch (r) {
    case FftRigor::Estimate: return "estimate";
    case FftRigor::Measure: return "measure";
    case FftRigor::Patient: return "patient";
    case FftRigor::Exhaustive: return "exhaustive";
    case FftRigor::WisdomOnly: return "wisdom-only";
  }
  return "?";
}

FftRigor parse_rigor(const std::string& text) {
  for (FftRigor r : {FftRigor::Estimate, FftRigor::Measure, FftRigor::Patient, FftRigor::Exhaustive, FftRigor::WisdomOnly})
    if (to_string(r) == text) return r;
  throw_usage_error("unknown FFT rigor '" + text + "' (estimate, measure, patient, exhaustive, wisdom-only)");
}

std::string to_string(const FftSpec& s) {
  std::ostringstream o;
  o << to_string(s.kind) << ' ' << to_string(s.direction) << ' ' << s.x << 'x' << s.y << 'x' << s.z
    << " b" << s.batch << ' ' << to_string(s.placement) << ' ' << to_string(s.precision);
  return o.str();
}

FftSpec parse_fft_spec(const std::string& text) {
  std::istringstream in(text);
  std::string kind, dir, dims, batch, place, prec, extra;
  if (!(in >> kind >> dir >> dims >> batch >> place >> prec) || (in >> extra))
    bad_text(text, "expected 'KIND DIR XxYxZ bN PLACEMENT PRECISION'");
  FftSpec s;
  auto pick = [&](const std::string& word, auto... values) {
    for (auto v : {values...})
      if (to_string(v) == word) return v;
    bad_text(text, "unexpected '" + word + "'");
  };
  s.kind = pick(kind, Kind::R2C, Kind::C2R, Kind::C2C);
  s.direction = pick(dir, Direction::Forward, Direction::Inverse);
  s.placement = pick(place, Placement::OutOfPlace, Placement::InPlace);
  s.precision = pick(prec, Precision::F32, Precision::F64);
  char sep1 = 0, sep2 = 0, tail = 0;
  std::istringstream d(dims);
  if (!(d >> s.x >> sep1 >> s.y >> sep2 >> s.z) || sep1 != 'x' || sep2 != 'x' || (d >> tail))
    bad_text(text, "sizes must read XxYxZ");
  std::istringstream b(batch);
  char letter = 0;
  if (!(b >> letter >> s.batch) || letter != 'b' || (b >> tail)) bad_text(text, "batch must read bN");
  return s;
}

std::size_t hash_value(const FftSpec& s) noexcept {
  std::uint64_t h = 14695981039346656037ull; // FNV-1a offset basis
  auto mix = [&h](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xffu;
      h *= 1099511628211ull; // FNV prime
    }
  };
  mix(static_cast<std::uint64_t>(s.x));
  mix(static_cast<std::uint64_t>(s.y));
  mix(static_cast<std::uint64_t>(s.z));
  mix(static_cast<std::uint64_t>(s.batch));
  mix(static_cast<std::uint64_t>(s.kind) | static_cast<std::uint64_t>(s.direction) << 8 |
      static_cast<std::uint64_t>(s.placement) << 16 | static_cast<std::uint64_t>(s.precision) << 24);
  return static_cast<std::size_t>(h);
}

namespace detail {
void spec_error(const FftSpec& spec, const std::string& problem) {
  throw Error(ExitCode::Runtime, "FFT " + to_string(spec) + ": " + problem);
}
} // namespace detail

} // namespace frost::fft
