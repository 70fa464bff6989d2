#include "frost/tuning/problem_key.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "frost/core/error.hpp"

namespace frost::tuning {

namespace {

bool is_name(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool is_value(const std::string& s) { return !s.empty() && s.find_first_of("|;\n") == std::string::npos; }

/// "156x79" -> {156, 79}; nullopt unless every part is a positive integer.
std::optional<std::vector<std::int64_t>> parse_edges(const std::string& v) {
  std::vector<std::int64_t> out;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = std::min(v.find('x', begin), v.size());
    const std::string part = v.substr(begin, end - begin);
    if (part.empty() || part.size() > 18 ||
        !std::all_of(part.begin(), part.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return std::nullopt;
    const std::int64_t e = std::stoll(part);
    if (e <= 0) return std::nullopt;
    out.push_back(e);
    if (end == v.size()) return out;
    begin = end + 1;
  }
}

} // namespace

ProblemKey& ProblemKey::add(const std::string& name, const std::string& op, const std::string& value) {
  FROST_EXPECTS(is_name(name), "problem-key field name '" + name + "' is not an identifier");
  FROST_EXPECTS(is_value(value), "problem-key field '" + name + "' has an empty value or one with '|' or ';'");
  for (const Field& f : fields_) FROST_EXPECTS(f.name != name, "problem-key field '" + name + "' given twice");
  fields_.push_back({name, op, value});
  return *this;
}

ProblemKey& ProblemKey::text(const std::string& name, const std::string& value) { return add(name, "=", value); }

ProblemKey& ProblemKey::integer(const std::string& name, std::int64_t value) {
  return add(name, "=", std::to_string(value));
}

ProblemKey& ProblemKey::real(const std::string& name, double value) {
  FROST_EXPECTS(std::isfinite(value), "problem-key field '" + name + "' is not finite");
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", value);
  std::string s = buf;
  if (s == "-0.000") s = "0.000"; // one spelling for zero
  return add(name, "=", s);
}

ProblemKey& ProblemKey::size(const std::string& name, const std::vector<std::int64_t>& edges) {
  FROST_EXPECTS(!edges.empty(), "problem-key size '" + name + "' has no edges");
  std::string v;
  for (std::int64_t e : edges) {
    FROST_EXPECTS(e > 0, "problem-key size '" + name + "' has an edge < 1");
    v += (v.empty() ? "" : "x") + std::to_string(e);
  }
  return add(name, "=", v);
}

ProblemKey& ProblemKey::bucket(const std::string& name, std::int64_t count) {
  return add(name, "<=", std::to_string(bucket_of(count)));
}

std::string ProblemKey::str() const {
  std::string out;
  for (const Field& f : fields_) out += (out.empty() ? "" : ";") + f.name + f.op + f.value;
  return out;
}

std::optional<ProblemKey> ProblemKey::parse(const std::string& text) {
  ProblemKey k;
  if (text.empty()) return k;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = std::min(text.find(';', begin), text.size());
    const std::string item = text.substr(begin, end - begin);
    const std::size_t op = item.find_first_of("<=");
    if (op == std::string::npos || op == 0) return std::nullopt;
    Field f;
    f.name = item.substr(0, op);
    f.op = item.compare(op, 2, "<=") == 0 ? "<=" : item[op] == '=' ? "=" : "";
    if (f.op.empty()) return std::nullopt;
    f.value = item.substr(op + f.op.size());
    if (!is_name(f.name) || !is_value(f.value)) return std::nullopt;
    for (const Field& g : k.fields_)
      if (g.name == f.name) return std::nullopt;
    k.fields_.push_back(std::move(f));
    if (end == text.size()) return k;
    begin = end + 1;
  }
}

std::int64_t bucket_of(std::int64_t n) {
  std::int64_t b = 1;
  while (b < n) b *= 2;
  return b;
}

double SizeDistance::max_ratio() const { return std::exp(max_log_ratio); }

std::optional<SizeDistance> size_distance(const std::string& key, const std::string& ref,
                                          const std::vector<std::string>& size_fields) {
  const auto a = ProblemKey::parse(key), b = ProblemKey::parse(ref);
  if (!a || !b || a->fields().size() != b->fields().size()) return std::nullopt;
  SizeDistance d;
  for (std::size_t i = 0; i < a->fields().size(); ++i) {
    const auto& fa = a->fields()[i];
    const auto& fb = b->fields()[i];
    if (fa.name != fb.name || fa.op != fb.op) return std::nullopt;
    const bool is_size = std::find(size_fields.begin(), size_fields.end(), fa.name) != size_fields.end();
    if (!is_size) {
      if (fa.value != fb.value) return std::nullopt;
      continue;
    }
    const auto ea = parse_edges(fa.value), eb = parse_edges(fb.value);
    if (!ea || !eb || ea->size() != eb->size()) return std::nullopt;
    for (std::size_t j = 0; j < ea->size(); ++j) {
      const double l = std::fabs(std::log(static_cast<double>((*ea)[j]) / static_cast<double>((*eb)[j])));
      d.max_log_ratio = std::max(d.max_log_ratio, l);
      d.sum_log_ratio += l;
    }
  }
  return d;
}

} // namespace frost::tuning
