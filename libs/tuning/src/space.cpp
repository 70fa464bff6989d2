// Tuning spaces (docs/tune.md#declaring-a-space): declaration checks, pruned canonical enumeration and the
// signature.
#include "frost/tuning/space.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "frost/core/error.hpp"
#include "frost/cache/text_hash.hpp"

namespace frost::tuning {

const char* to_string(ParamKind kind) { return kind == ParamKind::Compile ? "compile" : "launch"; }

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

} // namespace

std::int64_t Assignment::operator[](const std::string& name) const {
  const Constraint& c = space_->constraints_[constraint_];
  const auto& reads = space_->compiled_[constraint_].reads;
  for (std::size_t i = 0; i < c.reads.size(); ++i)
    if (c.reads[i] == name) return values_[reads[i]];
  FROST_THROW(ExitCode::Runtime, "tuning constraint '" + c.id + "' reads '" + name + "', which it does not declare");
}

TuningSpace& TuningSpace::param(const std::string& name, ParamKind kind, std::vector<std::int64_t> values) {
  FROST_EXPECTS(is_identifier(name), "tuning parameter name '" + name + "' is not an identifier");
  FROST_EXPECTS(!param_index(name), "tuning parameter '" + name + "' declared twice");
  FROST_EXPECTS(!values.empty(), "tuning parameter '" + name + "' has no values");
  FROST_EXPECTS(std::set<std::int64_t>(values.begin(), values.end()).size() == values.size(),
                "tuning parameter '" + name + "' lists a value twice");
  FROST_EXPECTS(constraints_.empty(), "tuning parameter '" + name + "' declared after a constraint");
  params_.push_back({name, kind, std::move(values)});
  return *this;
}

TuningSpace& TuningSpace::constraint(const std::string& id, std::vector<std::string> reads,
                                     std::function<bool(const Assignment&)> holds) {
  FROST_EXPECTS(!id.empty() && id.find_first_of(" \n") == std::string::npos,
                "tuning constraint id '" + id + "' is not a word");
  FROST_EXPECTS(holds != nullptr, "tuning constraint '" + id + "' has no predicate");
  for (const Constraint& c : constraints_) FROST_EXPECTS(c.id != id, "tuning constraint '" + id + "' declared twice");
  Compiled compiled;
  for (const std::string& r : reads) {
    const auto i = param_index(r);
    FROST_EXPECTS(i.has_value(), "tuning constraint '" + id + "' reads undeclared parameter '" + r + "'");
    compiled.reads.push_back(*i);
    compiled.stage = std::max(compiled.stage, *i + 1);
  }
  constraints_.push_back({id, std::move(reads), std::move(holds)});
  compiled_.push_back(std::move(compiled));
  return *this;
}

std::optional<std::size_t> TuningSpace::param_index(const std::string& name) const {
  for (std::size_t i = 0; i < params_.size(); ++i)
    if (params_[i].name == name) return i;
  return std::nullopt;
}

std::size_t TuningSpace::raw_size() const {
  std::size_t n = params_.empty() ? 0 : 1;
  for (const Parameter& p : params_) n *= p.values.size();
  return n;
}

bool TuningSpace::holds(std::size_t constraint, const std::int64_t* values) const {
  return constraints_[constraint].holds(Assignment(*this, constraint, values));
}

void TuningSpace::enumerate_from(std::size_t level, Configuration& current, bool prune,
                                 std::vector<Configuration>& out) const {
  if (level == params_.size()) {
    out.push_back(current);
    return;
  }
  for (std::int64_t v : params_[level].values) {
    current[level] = v;
    bool ok = true;
    // Constraints whose last read parameter is this one can be decided now.
    for (std::size_t c = 0; prune && ok && c < constraints_.size(); ++c)
      if (compiled_[c].stage == level + 1) ok = holds(c, current.data());
    if (ok) enumerate_from(level + 1, current, prune, out);
  }
}

std::vector<Configuration> TuningSpace::enumerate() const {
  std::vector<Configuration> out;
  if (params_.empty()) return out;
  Configuration current(params_.size(), 0);
  // Constraints that read no parameter depend only on the device or the problem.
  for (std::size_t c = 0; c < constraints_.size(); ++c)
    if (compiled_[c].stage == 0 && !holds(c, current.data())) return out;
  enumerate_from(0, current, true, out);
  return out;
}

std::vector<Configuration> TuningSpace::enumerate_raw() const {
  std::vector<Configuration> out;
  if (params_.empty()) return out;
  Configuration current(params_.size(), 0);
  enumerate_from(0, current, false, out);
  return out;
}

bool TuningSpace::contains(const Configuration& c) const {
  if (c.size() != params_.size() || params_.empty()) return false;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const auto& vs = params_[i].values;
    if (std::find(vs.begin(), vs.end(), c[i]) == vs.end()) return false;
  }
  return true;
}

std::vector<std::string> TuningSpace::violated(const Configuration& c) const {
  FROST_EXPECTS(contains(c), "configuration is not a point of this tuning space");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < constraints_.size(); ++i)
    if (!holds(i, c.data())) out.push_back(constraints_[i].id);
  return out;
}

bool TuningSpace::valid(const Configuration& c) const { return contains(c) && violated(c).empty(); }

std::string TuningSpace::canonical_text() const {
  std::ostringstream t;
  t << "kernel_version=" << kernel_version_ << '\n';
  for (const Parameter& p : params_) {
    t << "param " << p.name << ' ' << to_string(p.kind) << ' ';
    for (std::size_t i = 0; i < p.values.size(); ++i) t << (i ? "," : "") << p.values[i];
    t << '\n';
  }
  for (const Constraint& c : constraints_) t << "constraint " << c.id << '\n';
  return t.str();
}

std::uint64_t TuningSpace::signature() const { return cache::fnv1a64(canonical_text()); }

NamedConfig TuningSpace::named(const Configuration& c) const {
  FROST_EXPECTS(c.size() == params_.size(), "configuration has the wrong number of values");
  NamedConfig n;
  for (std::size_t i = 0; i < c.size(); ++i) n.emplace_back(params_[i].name, c[i]);
  return n;
}

std::optional<Configuration> TuningSpace::from_named(const NamedConfig& n) const {
  if (n.size() != params_.size()) return std::nullopt;
  Configuration c(params_.size(), 0);
  std::vector<bool> seen(params_.size(), false);
  for (const auto& [name, value] : n) {
    const auto i = param_index(name);
    if (!i || seen[*i]) return std::nullopt;
    seen[*i] = true;
    c[*i] = value;
  }
  if (!contains(c)) return std::nullopt;
  return c;
}

std::string TuningSpace::describe(const Configuration& c) const { return tuning::describe(named(c)); }

std::string describe(const NamedConfig& c) {
  std::string out;
  for (const auto& [name, value] : c) out += (out.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return out;
}

std::optional<std::int64_t> value_of(const NamedConfig& c, const std::string& name) {
  for (const auto& [n, v] : c)
    if (n == name) return v;
  return std::nullopt;
}

std::optional<std::size_t> index_of(const std::vector<Configuration>& configs, const Configuration& c) {
  const auto it = std::find(configs.begin(), configs.end(), c);
  if (it == configs.end()) return std::nullopt;
  return static_cast<std::size_t>(it - configs.begin());
}

} // namespace frost::tuning
