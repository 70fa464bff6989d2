#pragma once
/// @file json.hpp
/// @brief A minimal streaming JSON writer for machine-readable outputs (--describe, advisor tables).
#include <string>
#include <vector>

namespace frost::cli {

/// Writes compact, valid JSON; commas and string escaping are handled here so callers can't get
/// them wrong. Misuse (a value without a key inside an object) is a programming error.
class JsonWriter {
public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(const std::string& k);
  JsonWriter& value(const std::string& v);
  JsonWriter& value(const char* v) { return value(std::string(v)); }
  JsonWriter& value(double v);
  JsonWriter& value(long long v);
  JsonWriter& value(int v) { return value(static_cast<long long>(v)); }
  JsonWriter& value(bool v);
  JsonWriter& null();
  const std::string& str() const { return out_; }

private:
  void separate();
  std::string out_;
  std::vector<bool> first_; ///< per open container: no element written yet
  bool after_key_ = false;
};

std::string json_escape(const std::string& s);

} // namespace frost::cli
