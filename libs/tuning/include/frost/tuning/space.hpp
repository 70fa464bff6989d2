#pragma once
/// @file space.hpp
/// @brief Tuning spaces (docs/tune.md#declaring-a-space): integer parameters with ordered value lists,
/// constraints as predicates over the parameters they declare, canonical enumeration of the
/// valid configurations, and the space signature that is part of every cache key.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace frost::tuning {

/// Compile-time parameters change the generated code (template arguments, NVRTC builds);
/// launch-time parameters change only the launch (docs/tune.md#launch-time-and-compile-time-parameters).
enum class ParamKind { Compile, Launch };
const char* to_string(ParamKind kind);

/// A named integer knob with its ordered, duplicate-free list of values (booleans are 0/1).
struct Parameter {
  std::string name;
  ParamKind kind = ParamKind::Compile;
  std::vector<std::int64_t> values;
};

/// One point of a space: a value for every parameter, in declaration order.
using Configuration = std::vector<std::int64_t>;
/// A configuration with its parameter names, in declaration order: what records store and logs
/// print (indices into a space are only meaningful for one signature).
using NamedConfig = std::vector<std::pair<std::string, std::int64_t>>;

class TuningSpace;

/// The values a constraint may read, looked up by parameter name. Reading a parameter the
/// constraint did not declare is a programming error (it would be evaluated too early during
/// enumeration) and throws frost::Error(Runtime).
class Assignment {
public:
  std::int64_t operator[](const std::string& name) const;

private:
  friend class TuningSpace;
  Assignment(const TuningSpace& space, std::size_t constraint, const std::int64_t* values)
      : space_(&space), constraint_(constraint), values_(values) {}
  const TuningSpace* space_;
  std::size_t constraint_;
  const std::int64_t* values_; ///< a full configuration (only the declared reads are set yet)
};

/// A predicate over some parameters (and, through captures, the device and the problem).
struct Constraint {
  std::string id;                  ///< stable textual id: part of the signature
  std::vector<std::string> reads;  ///< parameters the predicate reads
  std::function<bool(const Assignment&)> holds;
};

/// A kernel's tuning space. Built once per kernel, device and problem setting with the
/// builder methods; the signature depends only on the declarations (names, kinds, values,
/// constraint ids, kernel version), not on what the predicates capture.
class TuningSpace {
public:
  explicit TuningSpace(int kernel_version) : kernel_version_(kernel_version) {}

  /// Declares a parameter. Throws frost::Error(Runtime) on an empty or duplicated value list,
  /// a duplicated name, or a name that is not an identifier.
  TuningSpace& param(const std::string& name, ParamKind kind, std::vector<std::int64_t> values);
  /// Declares a constraint. Throws on a duplicated id or a read of an undeclared parameter
  /// (parameters must be declared before the constraints that read them).
  TuningSpace& constraint(const std::string& id, std::vector<std::string> reads,
                          std::function<bool(const Assignment&)> holds);

  int kernel_version() const { return kernel_version_; }
  const std::vector<Parameter>& parameters() const { return params_; }
  const std::vector<Constraint>& constraints() const { return constraints_; }
  /// Index of a parameter, or nullopt.
  std::optional<std::size_t> param_index(const std::string& name) const;

  /// Size of the raw cross product of the value lists.
  std::size_t raw_size() const;
  /// The valid configurations in canonical order: parameters in declaration order, values in
  /// list order, last parameter varying fastest. Each constraint is evaluated as soon as the
  /// last parameter it reads is fixed, which prunes without changing the order.
  std::vector<Configuration> enumerate() const;
  /// Every configuration of the raw cross product, in canonical order (tests, tools).
  std::vector<Configuration> enumerate_raw() const;

  /// True when `c` has one listed value per parameter.
  bool contains(const Configuration& c) const;
  /// True when `c` is in the space and satisfies every constraint.
  bool valid(const Configuration& c) const;
  /// Ids of the constraints `c` violates (`c` must be contained in the space).
  std::vector<std::string> violated(const Configuration& c) const;

  /// The canonical text the signature hashes: one line per parameter ("param NAME KIND
  /// v1,v2,...") and per constraint ("constraint ID"), in declaration order, after a first line
  /// "kernel_version=N".
  std::string canonical_text() const;
  /// FNV-1a 64 of canonical_text().
  std::uint64_t signature() const;

  NamedConfig named(const Configuration& c) const;
  /// The configuration with these names and values (any order, each parameter exactly once,
  /// values from the lists), else nullopt. Constraints are not checked (use valid()).
  std::optional<Configuration> from_named(const NamedConfig& n) const;
  /// "BLOCK_DIM=16 GRID_DIM_Z=1 ..." for logs.
  std::string describe(const Configuration& c) const;

private:
  friend class Assignment;
  struct Compiled {
    std::vector<std::size_t> reads; ///< parameter indices, as declared
    std::size_t stage = 0;          ///< largest read index + 1 (0: reads nothing)
  };
  bool holds(std::size_t constraint, const std::int64_t* values) const;
  void enumerate_from(std::size_t level, Configuration& current, bool prune, std::vector<Configuration>& out) const;

  int kernel_version_;
  std::vector<Parameter> params_;
  std::vector<Constraint> constraints_;
  std::vector<Compiled> compiled_;
};

/// "BLOCK_DIM=16 GRID_DIM_Z=1 ..." (names and values in the given order), for logs and tables.
std::string describe(const NamedConfig& c);
/// The value of parameter `name` in `c`, or nullopt.
std::optional<std::int64_t> value_of(const NamedConfig& c, const std::string& name);

/// Position of `c` in `configs`, or nullopt.
std::optional<std::size_t> index_of(const std::vector<Configuration>& configs, const Configuration& c);

} // namespace frost::tuning
