#pragma once
/// @file value_text.hpp
/// @brief Converting single STAR/XMD values between text and numbers, and the exact number
/// formats RELION and Xmipp write (docs/formats.md#star-syntax and #xmd-syntax).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace frost::meta {

/// @brief Parses a whole token as a double (leading '+' allowed, no surrounding spaces).
/// @return false when the token is empty or not entirely a number.
bool parse_double(std::string_view text, double& out) noexcept;

/// @brief Parses a whole token as an integer. A number written with a decimal point but an
/// integral value ("2.000000", as some writers emit for integer labels) is accepted.
bool parse_int(std::string_view text, std::int64_t& out) noexcept;

/// @brief True when the token is entirely a number (exactly the tokens parse_double accepts,
/// checked by a character scan that is much cheaper than converting).
bool looks_numeric(std::string_view text) noexcept;

/// @brief Parses a vector value: RELION `[a,b,c]` or Xmipp's space-separated list (the content of
/// `' 1.0 2.0 3.0 '` once unquoted). Returns nothing when an element is not a number.
std::optional<std::vector<double>> parse_vector(std::string_view text);

/// @brief RELION's loop/list number format: `%12.6f`, `%12.6e` when 0 < |v| < 0.001 or
/// |v| > 100000, five decimals for negatives, cut to 12 characters as RELION's snprintf does.
std::string format_relion_double(double v);
/// @brief RELION's integer format `%12lld` (not cut: RELION's cut would lose digits).
std::string format_relion_int(std::int64_t v);
/// @brief Xmipp's double format: `%12.6f`, or `%12.6e` when 0 < |v| < 0.001 or |v| > 100000.
std::string format_xmipp_double(double v);
/// @brief Xmipp's integer format `%10lld`.
std::string format_xmipp_int(std::int64_t v);
/// @brief Shortest text that reads back to exactly `v`.
std::string format_shortest(double v);

/// @brief RELION vector syntax `[a,b,c]` (12 significant digits, no spaces).
std::string format_relion_vector(const std::vector<double>& v);
/// @brief Xmipp vector content ` a b c ` (`%f` each); the writer adds the quotes.
std::string format_xmipp_vector(const std::vector<double>& v);

/// @brief Quotes a string value the way a STAR reader needs it: empty → `""`; values with
/// whitespace, or starting with a quote, `#`, `_`, `data_` or `loop_` → quoted with
/// `preferred` (`"` for RELION, `'` for Xmipp) or the other quote when the value contains it.
std::string quote_if_needed(std::string_view value, char preferred);
/// @brief The quote character quote_if_needed() would use, or '\0' when none is needed.
char quote_needed(std::string_view value, char preferred) noexcept;

} // namespace frost::meta
