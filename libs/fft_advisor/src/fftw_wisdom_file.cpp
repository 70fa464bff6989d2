// CPU fingerprint and the per-machine FFTW wisdom file (docs/fft_advisor.md#wisdom), on top of the
// wisdom import/export of frost::fft (which already takes the process-wide FFTW lock).
#include "frost/fft/fftw_wisdom_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/utsname.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "frost/cache/file_lock.hpp"
#include "frost/cache/text_hash.hpp"
#include "frost/cache/warn_once.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/fft/advisor_cache.hpp"
#include "frost/fft/versions.hpp"
#include "frost/fft/wisdom.hpp"

namespace frost::fft {

namespace {

std::string trim_collapse(const std::string& s) {
  std::istringstream in(s);
  std::string word, out;
  while (in >> word) out += (out.empty() ? "" : " ") + word;
  return out;
}

/// The value of the first /proc/cpuinfo line whose field name is `field`, or "".
std::string cpuinfo_field(const std::string& text, const std::string& field) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (trim_collapse(line.substr(0, colon)) == field) return trim_collapse(line.substr(colon + 1));
  }
  return {};
}

std::string read_model() {
  std::ifstream f("/proc/cpuinfo");
  std::stringstream text;
  text << f.rdbuf();
  const std::string all = text.str();
  std::string model = cpuinfo_field(all, "model name");
  if (model.empty()) model = cpuinfo_field(all, "Model name");
  if (model.empty()) {
    // ARM kernels report implementer and part numbers instead of a name.
    const std::string impl = cpuinfo_field(all, "CPU implementer"), part = cpuinfo_field(all, "CPU part");
    if (!impl.empty() || !part.empty()) model = "implementer " + impl + " part " + part;
  }
  if (model.empty()) {
    utsname u {};
    model = ::uname(&u) == 0 ? u.machine : "unknown-cpu";
  }
  for (char& c : model)
    if (c == '|') c = '/'; // '|' separates the fields of cache keys
  return model;
}

std::string detect_isa() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return "avx512";
  if (__builtin_cpu_supports("avx2")) return "avx2";
  if (__builtin_cpu_supports("avx")) return "avx";
  if (__builtin_cpu_supports("sse2")) return "sse2";
  return "x86";
#elif defined(__aarch64__)
  return "neon";
#else
  return "generic";
#endif
}

bool warn_first_time(const std::string& topic, const std::string& message) {
  if (!cache::first_time("wisdom-" + topic)) return false;
  log_warning(message);
  return true;
}

} // namespace

std::string cpu_model() {
  static const std::string model = read_model();
  return model;
}

std::string cpu_isa_level() {
  static const std::string isa = detect_isa();
  return isa;
}

std::string fftw_fingerprint() {
  return cache::hex64(cache_key_hash(cpu_model() + "|" + cpu_isa_level() + "|" + fftw_version()));
}

std::string fftw_wisdom_file(const std::string& cache_dir, Precision precision) {
  return cache_dir + "/fftw-wisdom-" + fftw_fingerprint() + "-" + to_string(precision) + ".txt";
}

bool load_fftw_wisdom(const std::string& cache_dir, Precision precision) {
  static std::once_flag system_once;
  try {
    std::call_once(system_once, [] { import_system_wisdom(); });
  } catch (const std::exception& e) {
    warn_first_time("system-wisdom", std::string("cannot import FFTW system wisdom: ") + e.what());
  }
  if (precision != Precision::F32) return false; // frost::fft has no double-precision FFTW
  const std::string path = fftw_wisdom_file(cache_dir, precision);
  try {
    // The file is only ever replaced by rename, so reading it needs no lock.
    return import_wisdom(path);
  } catch (const std::exception& e) {
    warn_first_time("load:" + path, std::string("ignoring FFTW wisdom file: ") + e.what());
    return false;
  }
}

bool save_fftw_wisdom(const std::string& cache_dir, Precision precision) {
  if (precision != Precision::F32) return false;
  const std::string path = fftw_wisdom_file(cache_dir, precision);
  std::error_code ec;
  std::filesystem::create_directories(cache_dir, ec);
  // The lock file, not the wisdom file, carries the lock: the wisdom file is replaced by rename.
  cache::UniqueFd lock = cache::open_locked(path + ".lock", O_RDWR | O_CREAT, LOCK_EX, 30.0);
  if (!lock.valid()) {
    warn_first_time("save:" + path, "cannot lock FFTW wisdom file " + path + " (" + std::strerror(errno) +
                                        "); wisdom not saved");
    return false;
  }
  try {
    import_wisdom(path); // keep what other processes saved since we loaded
  } catch (const std::exception& e) {
    warn_first_time("load:" + path, std::string("replacing unreadable FFTW wisdom file: ") + e.what());
  }
  try {
    export_wisdom(path);
    return true;
  } catch (const std::exception& e) {
    warn_first_time("save:" + path, std::string("FFTW wisdom not saved: ") + e.what());
    return false;
  }
}

} // namespace frost::fft
