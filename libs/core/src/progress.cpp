#include "frost/core/progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"

namespace frost {

namespace {
ProgressMode g_default = ProgressMode::Auto;
double seconds_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}
} // namespace

ProgressMode parse_progress_mode(const std::string& t) {
  if (t == "auto") return ProgressMode::Auto;
  if (t == "bar") return ProgressMode::Bar;
  if (t == "lines") return ProgressMode::Lines;
  if (t == "none") return ProgressMode::None;
  throw_usage_error("--progress: expected auto, bar, lines or none but got '" + t + "'");
}
void set_default_progress_mode(ProgressMode m) { g_default = m; }
ProgressMode default_progress_mode() { return g_default; }

Progress::Progress(std::string label, std::int64_t total, std::string unit, ProgressMode mode,
                   double min_interval_s)
    : label_(std::move(label)), unit_(std::move(unit)), total_(total), mode_(mode),
      min_interval_s_(min_interval_s), start_(std::chrono::steady_clock::now()), last_(start_) {
  if (mode_ == ProgressMode::Auto) mode_ = isatty(STDERR_FILENO) ? ProgressMode::Bar : ProgressMode::Lines;
  if (verbosity() < 1) mode_ = ProgressMode::None;
}

Progress::~Progress() {
  if (!finished_) finish();
}

std::string Progress::line() const {
  const double elapsed = seconds_between(start_, std::chrono::steady_clock::now());
  const double frac = total_ > 0 ? static_cast<double>(done_) / static_cast<double>(total_) : 1.0;
  const double eta = done_ > 0 ? elapsed * (1.0 - frac) / frac : 0.0;
  char buf[256];
  std::snprintf(buf, sizeof buf, "[%s] %lld/%lld %s %.1f%% elapsed %.1f s eta %.1f s", label_.c_str(),
                static_cast<long long>(done_), static_cast<long long>(total_), unit_.c_str(), 100.0 * frac,
                elapsed, eta);
  return buf;
}

void Progress::advance(std::int64_t count) {
  std::lock_guard<std::mutex> lock(mutex_);
  done_ += count;
  report(false);
}

void Progress::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  report(true);
}

void Progress::report(bool final_report) {
  if (mode_ == ProgressMode::None) return;
  const auto now = std::chrono::steady_clock::now();
  const double interval = mode_ == ProgressMode::Bar ? 0.2 : min_interval_s_;
  if (!final_report && seconds_between(last_, now) < interval) return;
  last_ = now;
  if (mode_ == ProgressMode::Bar) {
    std::fprintf(stderr, "\r%s", line().c_str());
    if (final_report) std::fprintf(stderr, "\n");
  } else {
    std::fprintf(stderr, "%s\n", line().c_str());
  }
  std::fflush(stderr);
}

} // namespace frost
