#include "frost/metadata/value_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace frost::meta {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

/// snprintf into a std::string (all formats used here are short).
template <class... Args>
std::string printf_string(const char* format, Args... args) {
  char buffer[64];
  const int n = std::snprintf(buffer, sizeof buffer, format, args...);
  return std::string(buffer, n < 0 ? 0 : static_cast<std::size_t>(n));
}

} // namespace

bool parse_double(std::string_view text, double& out) noexcept {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text.front() == '-') return false; // "+-1"
  }
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, out, std::chars_format::general);
  return result.ec == std::errc() && result.ptr == end;
}

bool parse_int(std::string_view text, std::int64_t& out) noexcept {
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  if (digits.empty()) return false;
  const char* end = digits.data() + digits.size();
  const auto result = std::from_chars(digits.data(), end, out);
  if (result.ec == std::errc() && result.ptr == end) return true;
  // "2.000000": an integer written by a double formatter.
  double d = 0;
  if (!parse_double(text, d) || !std::isfinite(d) || d != std::floor(d)) return false;
  if (d < -9.2e18 || d > 9.2e18) return false;
  out = static_cast<std::int64_t>(d);
  return true;
}

bool looks_numeric(std::string_view text) noexcept {
  // The grammar from_chars(general) accepts, after parse_double's optional '+':
  // [-] (digits [. digits*] | . digits) [(e|E) [+|-] digits] | [-] inf | infinity | nan[(chars)].
  std::size_t i = 0;
  const std::size_t n = text.size();
  if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
  if (i >= n) return false;
  const char c0 = static_cast<char>(text[i] | 0x20);
  if (c0 == 'i' || c0 == 'n') {
    double ignored = 0; // rare: let the full parser decide
    return parse_double(text, ignored);
  }
  const auto digit = [&](std::size_t k) { return k < n && text[k] >= '0' && text[k] <= '9'; };
  std::size_t mantissa_digits = 0;
  while (digit(i)) ++i, ++mantissa_digits;
  if (i < n && text[i] == '.') {
    ++i;
    while (digit(i)) ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return false;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    if (!digit(i)) return false;
    while (digit(i)) ++i;
  }
  return i == n;
}

std::optional<std::vector<double>> parse_vector(std::string_view text) {
  std::size_t b = 0, e = text.size();
  while (b < e && is_space(text[b])) ++b;
  while (e > b && is_space(text[e - 1])) --e;
  text = text.substr(b, e - b);
  const bool bracketed = text.size() >= 2 && text.front() == '[' && text.back() == ']';
  if (bracketed) text = text.substr(1, text.size() - 2);
  std::vector<double> values;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (is_space(text[i]) || (bracketed && text[i] == ','))) ++i;
    if (i >= text.size()) break;
    std::size_t j = i;
    while (j < text.size() && !is_space(text[j]) && !(bracketed && text[j] == ',')) ++j;
    double v = 0;
    if (!parse_double(text.substr(i, j - i), v)) return std::nullopt;
    values.push_back(v);
    i = j;
  }
  return values;
}

std::string format_relion_double(double v) {
  const double a = std::fabs(v);
  const bool scientific = (a > 0. && a < 0.001) || a > 100000.;
  const char* format = scientific ? (v < 0. ? "%12.5e" : "%12.6e") : (v < 0. ? "%12.5f" : "%12.6f");
  std::string s = printf_string(format, v);
  // RELION prints into a 13-byte buffer: anything past 12 characters is dropped.
  if (s.size() > 12) s.resize(12);
  return s;
}

std::string format_relion_int(std::int64_t v) { return printf_string("%12lld", static_cast<long long>(v)); }

std::string format_xmipp_double(double v) {
  const double a = std::fabs(v);
  const bool scientific = (a > 0. && a < 0.001) || a > 100000.;
  return printf_string(scientific ? "%12.6e" : "%12.6f", v);
}

std::string format_xmipp_int(std::int64_t v) { return printf_string("%10lld", static_cast<long long>(v)); }

std::string format_shortest(double v) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, result.ptr);
}

std::string format_relion_vector(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s += ',';
    s += printf_string("%.12g", v[i]);
  }
  s += ']';
  return s;
}

std::string format_xmipp_vector(const std::vector<double>& v) {
  std::string s = " ";
  for (double x : v) {
    s += printf_string("%f", x);
    s += ' ';
  }
  return s;
}

char quote_needed(std::string_view value, char preferred) noexcept {
  if (value.empty()) return preferred;
  bool needs = value.front() == '"' || value.front() == '\'' || value.front() == '#' ||
               value.front() == '_' || value.substr(0, 5) == "data_" || value.substr(0, 5) == "loop_";
  for (char c : value) {
    if (is_space(c)) {
      needs = true;
      break;
    }
  }
  if (!needs) return '\0';
  // A quote character inside the value is only a problem when it is followed by whitespace
  // (that would end the quoted token early); then use the other quote character.
  for (std::size_t i = 0; i < value.size(); ++i)
    if (value[i] == preferred && (i + 1 == value.size() || is_space(value[i + 1])))
      return preferred == '"' ? '\'' : '"';
  return preferred;
}

std::string quote_if_needed(std::string_view value, char preferred) {
  const char q = quote_needed(value, preferred);
  if (q == '\0') return std::string(value);
  std::string s;
  s.reserve(value.size() + 2);
  s += q;
  s += value;
  s += q;
  return s;
}

} // namespace frost::meta
