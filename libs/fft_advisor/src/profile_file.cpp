#include "frost/fft/profile_file.hpp"

#include <nlohmann/json.hpp>

#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"

namespace frost::fft {

namespace {

using json = nlohmann::json;

EvenRule parse_rule(const json& j, const char* field, const std::string& path) {
  const std::string v = j.at(field).get<std::string>();
  if (v == "always") return EvenRule::Always;
  if (v == "above_regular") return EvenRule::AboveRegular;
  if (v == "never") return EvenRule::Never;
  throw_input_error(path, std::string(field) + ": expected always, above_regular or never but got '" + v + "'");
}

const char* rule_name(EvenRule r) {
  return r == EvenRule::Always ? "always" : r == EvenRule::AboveRegular ? "above_regular" : "never";
}

} // namespace

Profile load_profile_file(const std::string& path) {
  const std::string text = read_text_file(path);
  try {
    const json j = json::parse(text);
    Profile p;
    p.name = j.at("name").get<std::string>();
    p.version = j.at("version").get<std::string>();
    p.primes = j.at("primes").get<std::vector<int>>();
    if (j.contains("single_extra_primes")) p.single_extra_primes = j.at("single_extra_primes").get<std::vector<int>>();
    p.real_rule = parse_rule(j, "real_rule", path);
    p.complex_rule = parse_rule(j, "complex_rule", path);
    p.has_kernel_model = j.value("kernel_model", true);
    if (j.contains("regular_limit")) p.regular_limit = j.at("regular_limit").get<std::array<index_t, 2>>();
    if (p.has_kernel_model) {
      const json& caps = j.at("caps");
      if (!caps.is_array() || caps.size() != 2) throw_input_error(path, "caps: expected [float caps, double caps]");
      for (std::size_t i = 0; i < 2; ++i)
        for (const auto& [prime, cap] : caps[i].items()) p.caps[i][std::stoi(prime)] = cap.get<int>();
    }
    for (int prime : p.primes)
      if (prime < 2) throw_input_error(path, "primes: " + std::to_string(prime) + " is not a prime");
    if (p.primes.empty()) throw_input_error(path, "primes: empty");
    return p;
  } catch (const json::exception& e) {
    throw_input_error(path, std::string("not a valid profile: ") + e.what());
  }
}

std::string profile_to_json(const Profile& p) {
  nlohmann::ordered_json j;
  j["name"] = p.name;
  j["version"] = p.version;
  j["primes"] = p.primes;
  j["single_extra_primes"] = p.single_extra_primes;
  j["real_rule"] = rule_name(p.real_rule);
  j["complex_rule"] = rule_name(p.complex_rule);
  j["kernel_model"] = p.has_kernel_model;
  j["regular_limit"] = p.regular_limit;
  nlohmann::ordered_json caps = nlohmann::ordered_json::array();
  for (const auto& c : p.caps) {
    nlohmann::ordered_json m = nlohmann::ordered_json::object();
    for (auto [prime, cap] : c) m[std::to_string(prime)] = cap;
    caps.push_back(m);
  }
  j["caps"] = caps;
  return j.dump(2) + "\n";
}

} // namespace frost::fft
