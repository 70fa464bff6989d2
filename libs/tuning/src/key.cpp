#include "frost/tuning/key.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/version.hpp"
#include "frost/cache/text_hash.hpp"

namespace frost::tuning {

namespace {

constexpr std::size_t kFields = 13;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = s.find(sep, begin);
    out.push_back(s.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos) return out;
    begin = end + 1;
  }
}

bool all_of_class(const std::string& s, int (*is_class)(int)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) { return is_class(static_cast<unsigned char>(c)) != 0; });
}

/// A whole decimal integer (optionally negative) as the key writes it, else nullopt.
std::optional<long long> to_int(const std::string& s) {
  const std::string digits = !s.empty() && s[0] == '-' ? s.substr(1) : s;
  if (digits.size() > 18 || !all_of_class(digits, [](int c) { return std::isdigit(c); })) return std::nullopt;
  return std::stoll(s);
}

std::string checked(const std::string& field, const char* what) {
  FROST_EXPECTS(field.find('|') == std::string::npos && field.find('\n') == std::string::npos,
                std::string("tuning key field '") + what + "' contains '|' or a line break");
  return field;
}

} // namespace

DeviceModel device_model(const CudaDeviceInfo& info) {
  DeviceModel m;
  m.name = info.name;
  m.cc_major = info.cc_major;
  m.cc_minor = info.cc_minor;
  m.multiprocessors = info.sm_count;
  m.memory_gib = static_cast<std::int64_t>(info.total_memory >> 30);
  return m;
}

std::string frost_major_minor() {
  const std::string v = version_string();
  const std::size_t first = v.find('.');
  if (first == std::string::npos) return v;
  const std::size_t second = v.find('.', first + 1);
  return v.substr(0, second);
}

SoftwareStack software_stack(const CudaDeviceInfo& info, const std::string& nvrtc) {
  SoftwareStack s;
  s.driver = info.driver_version;
  s.runtime = info.runtime_version;
  s.nvrtc = nvrtc;
  s.frost = frost_major_minor();
  return s;
}

TuningKey tuning_key(const std::string& kernel, const TuningSpace& space, const CudaDeviceInfo& info,
                     const std::string& problem) {
  TuningKey k;
  k.kernel = {kernel, space.kernel_version(), space.signature()};
  k.device = device_model(info);
  k.software = software_stack(info);
  k.problem = problem;
  return k;
}

std::string TuningKey::str() const {
  std::string device_name = device.name;
  for (char& c : device_name)
    if (c == '|' || c == '\n') c = '/';
  std::ostringstream k;
  k << kSchemaVersion << '|' << checked(kernel.name, "kernel") << '|' << kernel.version << '|'
    << cache::hex64(kernel.signature) << '|' << device_name << '|' << device.cc_major << '.' << device.cc_minor
    << '|' << device.multiprocessors << '|' << device.memory_gib << '|' << software.driver << '|' << software.runtime
    << '|' << checked(software.nvrtc, "nvrtc") << '|' << checked(software.frost, "frost") << '|'
    << checked(problem, "problem");
  return k.str();
}

std::optional<TuningKey> TuningKey::parse(const std::string& text) {
  const std::vector<std::string> f = split(text, '|');
  if (f.size() != kFields || f[0] != std::to_string(kSchemaVersion)) return std::nullopt;
  TuningKey k;
  k.kernel.name = f[1];
  const auto version = to_int(f[2]);
  if (k.kernel.name.empty() || !version || f[3].size() != 16) return std::nullopt;
  k.kernel.version = static_cast<int>(*version);
  if (!all_of_class(f[3], [](int c) { return std::isxdigit(c); })) return std::nullopt;
  k.kernel.signature = std::strtoull(f[3].c_str(), nullptr, 16);
  k.device.name = f[4];
  const std::vector<std::string> cc = split(f[5], '.');
  const auto sms = to_int(f[6]), gib = to_int(f[7]), driver = to_int(f[8]), runtime = to_int(f[9]);
  if (cc.size() != 2 || !sms || !gib || !driver || !runtime) return std::nullopt;
  const auto major = to_int(cc[0]), minor = to_int(cc[1]);
  if (!major || !minor) return std::nullopt;
  k.device.cc_major = static_cast<int>(*major);
  k.device.cc_minor = static_cast<int>(*minor);
  k.device.multiprocessors = static_cast<int>(*sms);
  k.device.memory_gib = *gib;
  k.software.driver = static_cast<int>(*driver);
  k.software.runtime = static_cast<int>(*runtime);
  k.software.nvrtc = f[10];
  k.software.frost = f[11];
  k.problem = f[12];
  return k;
}

bool same_kernel(const KernelId& a, const KernelId& b) {
  return a.name == b.name && a.version == b.version && a.signature == b.signature;
}

bool same_model(const DeviceModel& a, const DeviceModel& b) {
  return a.name == b.name && a.cc_major == b.cc_major && a.cc_minor == b.cc_minor &&
         a.multiprocessors == b.multiprocessors && a.memory_gib == b.memory_gib;
}

bool same_software(const SoftwareStack& a, const SoftwareStack& b) {
  return a.driver == b.driver && a.runtime == b.runtime && a.nvrtc == b.nvrtc && a.frost == b.frost;
}

std::string key_hash(const std::string& key) { return cache::hex64(cache::fnv1a64(key)); }

} // namespace frost::tuning
