#include "frost/cli/params.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "frost/cli/json.hpp"
#include "frost/core/error.hpp"

namespace frost::cli {

namespace {

bool parse_long(const std::string& s, long long* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

bool parse_double(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  // nan and inf are no value any option means.
  if (errno != 0 || *end != '\0' || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool looks_like_option(const std::string& s) {
  double ignored;
  return s.size() > 1 && s[0] == '-' && !parse_double(s, &ignored);
}

std::string fmt_real(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

} // namespace

const char* type_name(ParamType t) {
  switch (t) {
  case ParamType::Flag: return "flag";
  case ParamType::Int: return "int";
  case ParamType::Real: return "real";
  case ParamType::Text: return "text";
  case ParamType::Choice: return "choice";
  case ParamType::Ints: return "ints";
  case ParamType::Reals: return "reals";
  }
  return "text";
}

Param& Params::add(Param p) {
  FROST_EXPECTS(find(p.name) == nullptr, "parameter declared twice: " + p.name);
  params_.push_back(std::move(p));
  return params_.back();
}

Param& Params::flag(const std::string& name, const std::string& help) {
  Param p;
  p.name = name;
  p.type = ParamType::Flag;
  p.count = 0;
  p.help = help;
  return add(p);
}

Param& Params::integer(const std::string& name, long long def, const std::string& help) {
  Param p;
  p.name = name;
  p.type = ParamType::Int;
  p.defaults = {std::to_string(def)};
  p.help = help;
  return add(p);
}

Param& Params::integer_required(const std::string& name, const std::string& help) {
  Param p;
  p.name = name;
  p.type = ParamType::Int;
  p.help = help;
  p.required = true;
  return add(p);
}

Param& Params::real(const std::string& name, double def, const std::string& help) {
  Param p;
  p.name = name;
  p.type = ParamType::Real;
  p.defaults = {fmt_real(def)};
  p.help = help;
  return add(p);
}

Param& Params::real_required(const std::string& name, const std::string& help) {
  Param p;
  p.name = name;
  p.type = ParamType::Real;
  p.help = help;
  p.required = true;
  return add(p);
}

Param& Params::text(const std::string& name, const std::string& def, const std::string& help) {
  Param p;
  p.name = name;
  p.type = ParamType::Text;
  p.defaults = {def};
  p.help = help;
  return add(p);
}

Param& Params::text_required(const std::string& name, const std::string& help) {
  Param p;
  p.name = name;
  p.type = ParamType::Text;
  p.help = help;
  p.required = true;
  return add(p);
}

Param& Params::text_optional(const std::string& name, const std::string& help) {
  Param p;
  p.name = name;
  p.type = ParamType::Text;
  p.help = help;
  return add(p);
}

Param& Params::choice(const std::string& name, const std::string& def, std::vector<std::string> choices,
                      const std::string& help) {
  Param p;
  p.name = name;
  p.type = ParamType::Choice;
  p.defaults = {def};
  p.choices = std::move(choices);
  p.help = help;
  return add(p);
}

Param& Params::integers(const std::string& name, std::vector<long long> defs, const std::string& help) {
  Param p;
  p.name = name;
  p.type = ParamType::Ints;
  for (long long d : defs) p.defaults.push_back(std::to_string(d));
  p.count = defs.empty() ? -1 : static_cast<int>(defs.size());
  p.help = help;
  return add(p);
}

Param& Params::reals(const std::string& name, std::vector<double> defs, const std::string& help) {
  Param p;
  p.name = name;
  p.type = ParamType::Reals;
  for (double d : defs) p.defaults.push_back(fmt_real(d));
  p.count = defs.empty() ? -1 : static_cast<int>(defs.size());
  p.help = help;
  return add(p);
}

const Param* Params::find(const std::string& spelling) const {
  for (const auto& p : params_) {
    if (p.name == spelling) return &p;
    for (const auto& a : p.aliases)
      if (a == spelling) return &p;
  }
  return nullptr;
}

const Param& Params::declared_param(const std::string& name) const {
  const Param* p = find(name);
  FROST_EXPECTS(p != nullptr, "parameter not declared: " + name);
  return *p;
}

void Params::check_value(const Param& p, const std::string& v) const {
  auto bad = [&](const std::string& why) { throw_usage_error(p.name + ": " + why + " (got '" + v + "')"); };
  double num = 0;
  switch (p.type) {
  case ParamType::Int:
  case ParamType::Ints: {
    long long i = 0;
    if (!parse_long(v, &i)) bad("expected an integer");
    num = static_cast<double>(i);
    break;
  }
  case ParamType::Real:
  case ParamType::Reals:
    if (!parse_double(v, &num)) bad("expected a finite number");
    break;
  case ParamType::Choice: {
    bool ok = false;
    std::string list;
    for (const auto& c : p.choices) {
      ok = ok || c == v;
      list += (list.empty() ? "" : ", ") + c;
    }
    if (!ok) bad("expected one of " + list);
    return;
  }
  default: return;
  }
  if (p.has_min && num < p.min) bad("must be at least " + fmt_real(p.min));
  if (p.has_max && num > p.max) bad("must be at most " + fmt_real(p.max));
}

void Params::parse(int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  parse(args);
}

void Params::parse(const std::vector<std::string>& args) {
  given_.clear();
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string token = args[i];
    std::string inline_value;
    bool has_inline = false;
    if (const auto eq = token.find('='); token.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = token.substr(eq + 1);
      token = token.substr(0, eq);
      has_inline = true;
    }
    const Param* p = find(token);
    if (p == nullptr) {
      if (looks_like_option(token)) throw_usage_error("unknown option '" + token + "'");
      throw_usage_error("unexpected argument '" + token + "'");
    }
    std::vector<std::string> vals;
    if (has_inline) {
      if (p->type == ParamType::Flag) throw_usage_error(p->name + " takes no value");
      vals.push_back(inline_value);
    } else if (p->type != ParamType::Flag) {
      // Take `count` values, or as many as follow for an open list; negative numbers are values.
      const std::size_t want = p->count < 0 ? args.size() : static_cast<std::size_t>(p->count);
      while (vals.size() < want && i + 1 < args.size() && !looks_like_option(args[i + 1]))
        vals.push_back(args[++i]);
      if (vals.empty()) throw_usage_error(p->name + " needs a value");
    }
    // Lists given with one value (e.g. `--padding 2`) repeat it, as Xmipp does.
    if ((p->type == ParamType::Ints || p->type == ParamType::Reals) && p->count > 1 && vals.size() == 1)
      vals.assign(static_cast<std::size_t>(p->count), vals[0]);
    if (p->count > 0 && (p->type == ParamType::Ints || p->type == ParamType::Reals) &&
        vals.size() != static_cast<std::size_t>(p->count))
      throw_usage_error(p->name + " takes " + std::to_string(p->count) + " values");
    for (const auto& v : vals) check_value(*p, v);
    given_[p->name] = vals;
  }
  for (const auto& p : params_)
    if (p.required && !given_.count(p.name)) throw_usage_error("missing required option " + p.name);
}

bool Params::given(const std::string& name) const { return given_.count(declared_param(name).name) > 0; }

bool Params::has(const std::string& name) const {
  const Param& p = declared_param(name);
  return given_.count(p.name) > 0 || !p.defaults.empty();
}

const std::vector<std::string>& Params::values(const std::string& name) const {
  const Param& p = declared_param(name);
  if (auto it = given_.find(p.name); it != given_.end()) return it->second;
  if (p.defaults.empty()) throw_usage_error("missing value for " + p.name);
  return p.defaults;
}

bool Params::flag_value(const std::string& name) const {
  FROST_EXPECTS(declared_param(name).type == ParamType::Flag, name + " is not a flag");
  return given(name);
}

long long Params::get_int(const std::string& name) const {
  long long v = 0;
  parse_long(values(name).front(), &v);
  return v;
}

double Params::get_real(const std::string& name) const {
  double v = 0;
  parse_double(values(name).front(), &v);
  return v;
}

std::string Params::get_text(const std::string& name) const { return values(name).front(); }

std::vector<long long> Params::get_ints(const std::string& name) const {
  std::vector<long long> out;
  for (const auto& s : values(name)) {
    long long v = 0;
    parse_long(s, &v);
    out.push_back(v);
  }
  return out;
}

std::vector<double> Params::get_reals(const std::string& name) const {
  std::vector<double> out;
  for (const auto& s : values(name)) {
    double v = 0;
    parse_double(s, &v);
    out.push_back(v);
  }
  return out;
}

namespace {
std::string signature(const Param& p) {
  std::string s = p.name;
  for (const auto& a : p.aliases) s += ", " + a;
  if (p.type == ParamType::Flag) return s;
  std::string v = p.value_name.empty() ? type_name(p.type) : p.value_name;
  if (p.type == ParamType::Choice) {
    v.clear();
    for (const auto& c : p.choices) v += (v.empty() ? "" : "|") + c;
  }
  const int n = p.count < 0 ? 1 : p.count;
  for (int i = 0; i < n; ++i) s += " <" + v + ">";
  if (p.count < 0) s += "...";
  return s;
}

std::string describe_one(const Param& p) {
  std::string d = "  " + signature(p) + "\n      " + p.help;
  if (p.required) d += " (required)";
  else if (!p.defaults.empty() && p.type != ParamType::Flag) {
    std::string def;
    for (const auto& v : p.defaults) def += (def.empty() ? "" : " ") + v;
    d += " [default: " + def + "]";
  }
  return d + "\n";
}
} // namespace

std::string Params::usage(const std::string& program, const std::string& summary, bool more) const {
  std::string out = "Usage: " + program + " [options]\n\n" + summary + "\n";
  std::vector<std::string> sections;
  for (const auto& p : params_) {
    bool seen = false;
    for (const auto& s : sections) seen = seen || s == p.section;
    if (!seen) sections.push_back(p.section);
  }
  bool hidden = false;
  for (const auto& s : sections) {
    std::string body;
    for (const auto& p : params_) {
      if (p.section != s) continue;
      if (p.expert && !more) {
        hidden = true;
        continue;
      }
      body += describe_one(p);
    }
    if (!body.empty()) out += "\n" + s + ":\n" + body;
  }
  if (hidden) out += "\nExpert options are shown with --help --more.\n";
  return out;
}

std::string Params::help_of(const std::string& name) const {
  const Param* p = find(name);
  if (p == nullptr) p = find("--" + name);
  if (p == nullptr) p = find("-" + name);
  return p ? describe_one(*p) : std::string();
}

std::string Params::describe_json(const std::string& program, const std::string& summary) const {
  JsonWriter j;
  j.begin_object();
  j.key("program").value(program);
  j.key("summary").value(summary);
  j.key("parameters").begin_array();
  for (const auto& p : params_) {
    j.begin_object();
    j.key("name").value(p.name);
    j.key("aliases").begin_array();
    for (const auto& a : p.aliases) j.value(a);
    j.end_array();
    j.key("type").value(type_name(p.type));
    j.key("count").value(static_cast<long long>(p.count));
    j.key("required").value(p.required);
    j.key("expert").value(p.expert);
    j.key("section").value(p.section);
    j.key("default").begin_array();
    for (const auto& d : p.defaults) j.value(d);
    j.end_array();
    if (!p.choices.empty()) {
      j.key("choices").begin_array();
      for (const auto& c : p.choices) j.value(c);
      j.end_array();
    }
    if (p.has_min) j.key("min").value(p.min);
    if (p.has_max) j.key("max").value(p.max);
    j.key("help").value(p.help);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.str() + "\n";
}

} // namespace frost::cli
