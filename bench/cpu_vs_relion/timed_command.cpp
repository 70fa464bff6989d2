#include "timed_command.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace frost::bench {
namespace {

double children_cpu_s() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return double(u.ru_utime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec) + double(u.ru_stime.tv_sec) +
         1e-6 * double(u.ru_stime.tv_usec);
}

bool executable(const std::filesystem::path& p) { return access(p.c_str(), X_OK) == 0; }

} // namespace

CommandTime run_timed(const std::string& command, const std::string& log) {
  const std::string line = "(" + command + ") >>'" + log + "' 2>&1";
  CommandTime t;
  const double cpu0 = children_cpu_s();
  const auto w0 = std::chrono::steady_clock::now();
  const int rc = std::system(line.c_str());
  t.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  t.cpu_s = children_cpu_s() - cpu0;
  t.status = rc == -1 ? -1 : WEXITSTATUS(rc);
  return t;
}

std::string find_relion_program(const std::string& program) {
  if (const char* dir = std::getenv("FROST_RELION_BIN"); dir && *dir) {
    const std::filesystem::path p = std::filesystem::path(dir) / program;
    return executable(p) ? std::string(dir) : std::string();
  }
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::istringstream in(path);
  std::string dir;
  while (std::getline(in, dir, ':'))
    if (!dir.empty() && executable(std::filesystem::path(dir) / program)) return dir;
  return {};
}

} // namespace frost::bench
