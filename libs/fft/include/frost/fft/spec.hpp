#pragma once
/// @file spec.hpp
/// @brief What an FFT is (FftSpec), independent of the library that computes it.
///
/// Layout conventions, identical for the CPU (FFTW) and CUDA (cuFFT) backends so that results
/// compare element by element:
/// - x is fastest, then y, then z, then the batch index (as frost::Shape).
/// - Real-to-complex output and complex-to-real input hold the half spectrum: x/2+1 complex
///   values per row, rows of y, planes of z, signals one after another without gaps.
/// - Out-of-place real data is dense: x*y*z floats per signal.
/// - In-place real data is padded to 2*(x/2+1) floats per row, so the complex half spectrum fits
///   in the same buffer (the FFTW and cuFFT in-place convention).
/// - Transforms are unnormalised: forward then inverse multiplies by x*y*z (see scale.hpp).
#include <complex>
#include <cstddef>
#include <functional>
#include <string>

#include "frost/core/shape.hpp"

namespace frost::fft {

/// Single-precision complex value; layout-compatible with fftwf_complex and cufftComplex.
using Complex = std::complex<float>;

/// Which library computes the transform.
enum class Backend { Cpu, Cuda };
/// Floating-point precision of the data. Only F32 is implemented; F64 is reserved.
enum class Precision { F32, F64 };
/// Real-to-complex (forward only), complex-to-real (inverse only), or complex-to-complex.
enum class Kind { R2C, C2R, C2C };
/// Sign of the exponent: Forward is exp(-2 pi i k x / n), Inverse is exp(+2 pi i k x / n).
enum class Direction { Forward, Inverse };
/// Whether input and output share one buffer.
enum class Placement { OutOfPlace, InPlace };

/// How hard the planner searches (FFTW's flags). cuFFT has no rigor: every value plans alike.
enum class FftRigor {
  Estimate,  ///< heuristic plan; arrays are never touched (FFTW_ESTIMATE)
  Measure,   ///< times candidates on planner-owned scratch arrays (FFTW_MEASURE)
  Patient,   ///< wider search (FFTW_PATIENT)
  Exhaustive,///< widest search (FFTW_EXHAUSTIVE)
  WisdomOnly ///< a plan only if wisdom of Measure or better covers the spec (FFTW_WISDOM_ONLY)
};

/// @brief The value that fully describes one batched transform: sizes, batch, kind, direction,
/// placement and precision. Hashable (std::hash) and printable (to_string); equal specs get
/// the same cached plan.
struct FftSpec {
  index_t x = 1, y = 1, z = 1; ///< logical (real-space) size of one signal
  index_t batch = 1;           ///< signals per execution, stored one after another
  Kind kind = Kind::R2C;
  Direction direction = Direction::Forward;
  Placement placement = Placement::OutOfPlace;
  Precision precision = Precision::F32;

  /// Forward real-to-complex transform of `s` (s.n becomes the batch).
  static FftSpec r2c(const Shape& s, Placement p = Placement::OutOfPlace);
  /// Inverse complex-to-real transform giving real data of shape `s` (s.n becomes the batch).
  static FftSpec c2r(const Shape& s, Placement p = Placement::OutOfPlace);
  /// Complex-to-complex transform of shape `s` in direction `d`.
  static FftSpec c2c(const Shape& s, Direction d, Placement p = Placement::OutOfPlace);

  /// The transform that undoes this one (R2C <-> C2R, C2C flips direction), up to the factor N.
  FftSpec inverse() const;

  /// 1, 2 or 3: the highest dimension with size > 1 (a 1x1x1 signal has rank 1).
  int rank() const;
  /// x*y*z, the N of the unnormalised round trip.
  index_t signal_elements() const { return x * y * z; }
  /// Real-space sizes {x, y, z, batch}.
  Shape logical_shape() const { return {x, y, z, batch}; }
  /// Memory layout of the input, in its own element type (float or Complex), padding included.
  Shape input_shape() const;
  /// Memory layout of the output, in its own element type (float or Complex), padding included.
  Shape output_shape() const;
  /// True when the input elements are floats (R2C).
  bool real_input() const { return kind == Kind::R2C; }
  /// True when the output elements are floats (C2R).
  bool real_output() const { return kind == Kind::C2R; }
  /// Bytes of the whole input batch / output batch as laid out above.
  std::size_t input_bytes() const;
  std::size_t output_bytes() const;
  /// Bytes to allocate for one execution: max(in, out) in place, in + out out of place.
  std::size_t data_bytes() const;

  /// @brief Checks the spec.
  /// @throw frost::Error(Runtime) naming the spec and the problem: a size or batch < 1, a
  /// direction that contradicts R2C/C2R, or F64 (not implemented).
  void validate() const;

  friend bool operator==(const FftSpec& a, const FftSpec& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z && a.batch == b.batch && a.kind == b.kind &&
           a.direction == b.direction && a.placement == b.placement && a.precision == b.precision;
  }
  friend bool operator!=(const FftSpec& a, const FftSpec& b) { return !(a == b); }
};

/// Stable text key, e.g. "r2c fwd 512x480x1 b3 oop f32"; parse_fft_spec() reads it back.
std::string to_string(const FftSpec& spec);
/// @brief Inverse of to_string(const FftSpec&). @throw frost::Error(Usage) on malformed text.
FftSpec parse_fft_spec(const std::string& text);

std::string to_string(Backend b);   ///< "cpu" / "cuda"
std::string to_string(Kind k);      ///< "r2c" / "c2r" / "c2c"
std::string to_string(Direction d); ///< "fwd" / "inv"
std::string to_string(Placement p); ///< "oop" / "inplace"
std::string to_string(Precision p); ///< "f32" / "f64"
std::string to_string(FftRigor r);  ///< "estimate" / "measure" / "patient" / "wisdom-only"
/// @brief Parses the to_string() names (for --fft-rigor). @throw frost::Error(Usage).
FftRigor parse_rigor(const std::string& text);

/// 64-bit FNV-1a over the fields; stable across runs and builds.
std::size_t hash_value(const FftSpec& spec) noexcept;

} // namespace frost::fft

namespace std {
template <>
struct hash<frost::fft::FftSpec> {
  std::size_t operator()(const frost::fft::FftSpec& s) const noexcept { return frost::fft::hash_value(s); }
};
} // namespace std
