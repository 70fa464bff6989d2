#pragma once
/// @file program_run.hpp
/// @brief Running a program from a test: through /bin/sh in a process group of its own (signals
/// reach the program, a timeout ends the group), stdout and stderr to <log>.out and <log>.err.
#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace frost::test {

using Clock = std::chrono::steady_clock;

/// Seconds since `t`.
double since(Clock::time_point t);

/// How a run ended, with what it wrote to stdout and stderr.
struct Outcome {
  pid_t pid = -1;
  int exit_code = -1; ///< when it exited
  int signal = 0;     ///< when a signal ended it
  bool timed_out = false;
  double seconds = 0;
  long max_rss_kib = 0; ///< peak resident memory of the program (0 when it timed out)
  std::string out, err;

  /// "exit N", "killed by <signal>" or "TIMED OUT".
  std::string status() const;
};

/// A started program: `exec <command>`, so that the pid is the program itself, not a shell.
struct Running {
  pid_t pid = -1;
  std::string log;
  Clock::time_point start;
  bool reaped = false;
  int status = 0;
  long max_rss_kib = 0; ///< from wait4 once reaped
};

/// Starts `command`; with a `gate` (the read end of a pipe) the child waits for one byte on it
/// before it execs, so that the caller can prepare files named after the child's pid.
Running start_program(const std::string& command, const std::string& log, int gate = -1);

/// True when the program has ended (reaped now or before).
bool program_ended(Running& r);

/// Waits for the end, at most `timeout_s` from the start; then the group gets SIGTERM, SIGKILL.
Outcome finish_program(Running& r, double timeout_s);

/// Starts argv[0] with these arguments directly (posix_spawn, no shell); -1 when it cannot.
pid_t spawn_process(const std::vector<std::string>& argv);
/// Waits for a spawned process: its exit code, 128 + signal when a signal ended it, -1 on error.
int wait_exit_code(pid_t pid);

/// start_program + finish_program.
Outcome run_program(const std::string& command, const std::string& log, double timeout_s);

} // namespace frost::test

/// A googletest failure unless the stderr of `outcome` (an Outcome) holds `text`; shows it.
#define EXPECT_MENTIONS(outcome, text) \
  EXPECT_NE((outcome).err.find(text), std::string::npos) << "expected '" << (text) << "' in:\n" << (outcome).err
