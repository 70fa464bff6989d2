#pragma once
/// @file json_fields.hpp
/// @brief Strict reading of JSON cache records (nlohmann-json): every accessor throws
/// std::runtime_error naming the field when it is missing or of the wrong type, so a reader can
/// treat any exception as "this line is malformed". Shared by the size cache (libs/fft_advisor's
/// cache_record.cpp) and the kernel tuning cache (libs/tuning's record.cpp). Works for
/// nlohmann::json and nlohmann::ordered_json.
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace frost::cache {

/// A finite number, else null (JSON has no NaN or infinity).
template <class J = nlohmann::json>
J number_or_null(double v) {
  return std::isfinite(v) ? J(v) : J(nullptr);
}
template <class J = nlohmann::json>
J optional_number(const std::optional<double>& v) {
  return v ? number_or_null<J>(*v) : J(nullptr);
}
/// A string, else null for the empty string.
template <class J = nlohmann::json>
J text_or_null(const std::string& s) {
  return s.empty() ? J(nullptr) : J(s);
}

/// The member `name` of object `j`; throws when missing (the line is malformed).
template <class J>
const J& member(const J& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end()) throw std::runtime_error(std::string("missing field '") + name + "'");
  return *it;
}

/// An integer member; unsigned targets refuse negative numbers.
template <class T, class J>
T get_int(const J& j, const char* name) {
  const J& v = member(j, name);
  const bool ok = std::is_unsigned<T>::value ? v.is_number_unsigned() : v.is_number_integer();
  if (!ok) throw std::runtime_error(std::string("field '") + name + "' is not a suitable integer");
  return v.template get<T>();
}

/// A number; null reads as NaN (non-finite values are written as null).
template <class J>
double get_double(const J& j, const char* name) {
  const J& v = member(j, name);
  if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!v.is_number()) throw std::runtime_error(std::string("field '") + name + "' is not a number");
  return v.template get<double>();
}

template <class J>
std::optional<double> get_optional_double(const J& j, const char* name) {
  if (member(j, name).is_null()) return std::nullopt;
  return get_double(j, name);
}

template <class J>
std::string get_string(const J& j, const char* name) {
  const J& v = member(j, name);
  if (!v.is_string()) throw std::runtime_error(std::string("field '") + name + "' is not a string");
  return v.template get<std::string>();
}

/// A string that may be null (null reads as empty).
template <class J>
std::string get_text(const J& j, const char* name) {
  return member(j, name).is_null() ? std::string() : get_string(j, name);
}

template <class J>
bool get_bool(const J& j, const char* name) {
  const J& v = member(j, name);
  if (!v.is_boolean()) throw std::runtime_error(std::string("field '") + name + "' is not a boolean");
  return v.template get<bool>();
}

} // namespace frost::cache
