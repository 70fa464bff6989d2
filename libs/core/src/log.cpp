#include "frost/core/log.hpp"

#include <cstdio>
#include <mutex>

namespace frost {

namespace {
int g_verbosity = 1;
std::mutex g_mutex;
std::FILE* g_log_file = nullptr;

void emit(const std::string& line) {
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
