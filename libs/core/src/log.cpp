#include "frost/core/log.hpp"

#include <chrono>
#include <cstdio>
#include <mutex>

#include "frost/core/env.hpp"

namespace frost {

namespace {
int g_verbosity = 1;
std::mutex g_mutex;
std::FILE* g_log_file = nullptr;

// FROST_LOG_TIMES=1: every line starts with the milliseconds since the library was loaded
// (about the process start), to see where a run's wall time goes without a profiler.
const auto g_loaded = std::chrono::steady_clock::now();
const bool g_times = env_flag("FROST_LOG_TIMES");

void emit(const std::string& message) {
  std::string line = message;
  if (g_times) {
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "[%9.1f ms] ",
                  std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_loaded).count());
    line = stamp + line;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  std::fprintf(stderr, "%s\n", line.c_str());
  if (g_log_file) {
    std::fprintf(g_log_file, "%s\n", line.c_str());
    std::fflush(g_log_file);
  }
}
} // namespace

void set_verbosity(int level) { g_verbosity = level; }
int verbosity() { return g_verbosity; }

void set_log_file(const std::string& path) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_log_file) std::fclose(g_log_file);
  g_log_file = path.empty() ? nullptr : std::fopen(path.c_str(), "a");
}

void log_info(const std::string& m) {
  if (g_verbosity >= 1) emit(m);
}
void log_detail(const std::string& m) {
  if (g_verbosity >= 2) emit(m);
}
void log_warning(const std::string& m) {
  if (g_verbosity >= 1) emit("warning: " + m);
}
void log_error(const std::string& m) { emit("error: " + m); }

} // namespace frost
