#include "frost/core/log.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "frost/core/env.hpp"
#include "frost/core/error.hpp"

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
  std::string line = printable(message);
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
  if (!path.empty() && !g_log_file)
    throw_input_error(path, std::string("cannot open the log file for appending (") + std::strerror(errno) + ")");
}

std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    // Control bytes (a binary file's header quoted in a message) would drive the terminal;
    // UTF-8 sequences (Å, paths) pass.
    if (c < 0x20 && c != '\n' && c != '\t') {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else if (c == 0x7f) {
      out += "\\x7f";
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
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
