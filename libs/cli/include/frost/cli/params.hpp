#pragma once
/// @file params.hpp
/// @brief Typed, named command-line parameters declared once; usage text and a JSON description
/// are generated from the declarations (docs/conventions.md#program-base).
#include <map>
#include <string>
#include <vector>

namespace frost::cli {

enum class ParamType { Flag, Int, Real, Text, Choice, Ints, Reals };

/// What a text parameter names on disk, for the checks Program makes before any work: an input is
/// never written, and no output names an input or another output (docs/conventions.md#outputs).
enum class PathRole { None, Input, Output };

/// One declared parameter. Built fluently: `p.real("--sampling", 1.0, "pixel size [A]").alias("--sampling_rate")`.
struct Param {
  std::string name;                 ///< canonical spelling, e.g. "--padding" or "-i"
  std::vector<std::string> aliases; ///< other accepted spellings (Xmipp/RELION names)
  ParamType type = ParamType::Text;
  std::vector<std::string> defaults;///< default value(s) as text; empty = no default
  std::vector<std::string> choices; ///< for Choice
  int count = 1;                    ///< number of values for Ints/Reals (-1: one or more)
  std::string help, section = "Options", value_name;
  bool required = false, expert = false;
  PathRole role = PathRole::None;
  bool has_min = false, has_max = false;
  double min = 0, max = 0;

  Param& alias(const std::string& a) { aliases.push_back(a); return *this; }
  Param& require() { required = true; return *this; }
  Param& in_section(const std::string& s) { section = s; return *this; }
  Param& advanced() { expert = true; return *this; }
  Param& range(double lo, double hi) { has_min = has_max = true; min = lo; max = hi; return *this; }
  Param& at_least(double lo) { has_min = true; min = lo; return *this; }
  Param& meta(const std::string& v) { value_name = v; return *this; }
  /// The value is a file the run reads (must exist) / writes (checked before the run starts).
  Param& input_file() { role = PathRole::Input; return *this; }
  Param& output_file() { role = PathRole::Output; return *this; }
};

/// The declared parameters of one program and, after parse(), their values.
class Params {
public:
  Param& flag(const std::string& name, const std::string& help);
  Param& integer(const std::string& name, long long def, const std::string& help);
  Param& integer_required(const std::string& name, const std::string& help);
  Param& real(const std::string& name, double def, const std::string& help);
  Param& real_required(const std::string& name, const std::string& help);
  Param& text(const std::string& name, const std::string& def, const std::string& help);
  Param& text_required(const std::string& name, const std::string& help);
  /// Text with no default that may be left out (has() tells).
  Param& text_optional(const std::string& name, const std::string& help);
  Param& choice(const std::string& name, const std::string& def, std::vector<std::string> choices,
                const std::string& help);
  Param& integers(const std::string& name, std::vector<long long> defs, const std::string& help);
  Param& reals(const std::string& name, std::vector<double> defs, const std::string& help);

  /// Parse argv[1..]; throws frost::Error(Usage) with a one-line message on unknown options,
  /// missing or malformed values, out-of-range numbers and missing required parameters.
  void parse(int argc, const char* const* argv);
  /// Parse from a list of tokens (tests).
  void parse(const std::vector<std::string>& args);

  bool given(const std::string& name) const; ///< on the command line
  bool has(const std::string& name) const;   ///< given or has a default
  bool flag_value(const std::string& name) const;
  long long get_int(const std::string& name) const;
  double get_real(const std::string& name) const;
  std::string get_text(const std::string& name) const;
  std::vector<long long> get_ints(const std::string& name) const;
  std::vector<double> get_reals(const std::string& name) const;

  const std::vector<Param>& declared() const { return params_; }
  /// Usage text: program summary, then parameters grouped by section (expert ones only with `more`).
  std::string usage(const std::string& program, const std::string& summary, bool more = false) const;
  /// Help of one parameter (`--help <param>`), or "" when unknown.
  std::string help_of(const std::string& name) const;
  /// Machine-readable description (`--describe`): JSON with names, aliases, types, defaults, help.
  std::string describe_json(const std::string& program, const std::string& summary) const;

private:
  Param& add(Param p);
  const Param* find(const std::string& spelling) const;
  const Param& declared_param(const std::string& name) const;
  const std::vector<std::string>& values(const std::string& name) const;
  void check_value(const Param& p, const std::string& v) const;

  std::vector<Param> params_;
  std::map<std::string, std::vector<std::string>> given_;
};

const char* type_name(ParamType t);

} // namespace frost::cli
