// The advisor's vocabulary: extents as text, prime factorisation, a candidate's FftSpec.
#include "frost/fft/advisor_types.hpp"

#include <cctype>
#include <cstdint>
#include <limits>

#include "frost/core/error.hpp"

namespace frost::fft {

std::string to_string(const Extent& e) {
  return std::to_string(e.x) + "x" + std::to_string(e.y) + "x" + std::to_string(e.z);
}

namespace {

/// Parses one positive decimal size (digits only, no sign, no overflow).
index_t parse_dimension(const std::string& part, const std::string& text) {
  if (part.empty()) throw_usage_error("cannot read size '" + text + "': empty dimension");
  index_t v = 0;
  for (char ch : part) {
    if (!std::isdigit(static_cast<unsigned char>(ch)))
      throw_usage_error("cannot read size '" + text + "': expected X, XxY or XxYxZ with positive integers");
    const int digit = ch - '0';
    if (v > (std::numeric_limits<index_t>::max() - digit) / 10)
      throw_usage_error("cannot read size '" + text + "': dimension too large");
    v = v * 10 + digit;
  }
  if (v < 1) throw_usage_error("cannot read size '" + text + "': dimensions must be positive");
  return v;
}

} // namespace

Extent parse_extent(const std::string& text) {
  std::vector<std::string> parts(1);
  for (char ch : text) {
    if (ch == 'x' || ch == 'X')
      parts.emplace_back();
    else
      parts.back() += ch;
  }
  if (parts.size() > 3) throw_usage_error("cannot read size '" + text + "': at most three dimensions");
  Extent e;
  for (std::size_t d = 0; d < parts.size(); ++d) e[static_cast<int>(d)] = parse_dimension(parts[d], text);
  return e;
}

std::map<int, int> factorize(index_t n) {
  FROST_EXPECTS(n >= 1, "factorize needs a positive size");
  std::map<int, int> factors;
  // Trial division; sizes are below 2^62, so the divisor stays below 2^31 and p * p cannot
  // overflow.
  for (index_t p = 2; p * p <= n; p += (p == 2 ? 1 : 2)) {
    while (n % p == 0) {
      ++factors[static_cast<int>(p)];
      n /= p;
    }
  }
  if (n > 1) {
    // The map's key is an int: a prime factor above 2^31 cannot be reported.
    FROST_EXPECTS(n <= std::numeric_limits<int>::max(), "factorize: prime factor " + std::to_string(n) + " exceeds int");
    ++factors[static_cast<int>(n)];
  }
  return factors;
}

FftSpec Candidate::spec() const {
  FftSpec s;
  s.x = size.x;
  s.y = size.y;
  s.z = size.z;
  s.batch = batch;
  s.kind = kind;
  // R2C is always forward and C2R always inverse, whatever `direction` says.
  s.direction = kind == Kind::R2C ? Direction::Forward : kind == Kind::C2R ? Direction::Inverse : direction;
  s.placement = placement;
  s.precision = precision;
  return s;
}

} // namespace frost::fft
