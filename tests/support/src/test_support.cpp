#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "frost/test/support.hpp"

namespace frost::test {

std::string data_root() {
  if (const char* env = std::getenv("FROST_TEST_DATA"); env && *env) return env;
  return FROST_TEST_DATA_COMPILED;
}

std::string data_file(const std::string& relative) {
  const std::string p = data_root() + "/" + relative;
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 ? p : std::string();
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "frost-test-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

EnvVar::EnvVar(const char* name, const char* value) : name_(name) {
  if (const char* old = std::getenv(name)) old_ = old;
  if (value) ::setenv(name, value, 1);
  else ::unsetenv(name);
}

EnvVar::~EnvVar() {
  if (old_) ::setenv(name_, old_->c_str(), 1);
  else ::unsetenv(name_);
}

std::vector<float> random_floats(std::size_t n, std::uint32_t seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

std::string gpu_unavailable_reason() {
  if (!cuda_compiled()) return "frost was built without CUDA (FROST_USE_CUDA=OFF)";
  if (cuda_device_count() == 0) return "no CUDA device is visible on this machine";
  return {};
}

bool gpu_tests_required() {
  const char* v = std::getenv("FROST_REQUIRE_GPU_TESTS");
  return v != nullptr && std::string(v) == "1";
}

} // namespace frost::test
