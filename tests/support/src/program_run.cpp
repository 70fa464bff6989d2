#include "frost/test/program_run.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include "frost/test/log_capture.hpp"

extern char** environ;

namespace frost::test {

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string Outcome::status() const {
  if (timed_out) return "TIMED OUT";
  if (signal) return std::string("killed by ") + strsignal(signal);
  return "exit " + std::to_string(exit_code);
}

Running start_program(const std::string& command, const std::string& log, int gate) {
  Running r;
  r.log = log;
  const std::string line = "exec " + command + " >" + log + ".out 2>" + log + ".err";
  r.start = Clock::now();
  r.pid = ::fork();
  if (r.pid == 0) {
    ::setpgid(0, 0);
    if (gate >= 0) {
      char go = 0;
      if (::read(gate, &go, 1) != 1) ::_exit(126);
      ::close(gate);
    }
    ::execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  if (r.pid > 0) ::setpgid(r.pid, r.pid); // also here: no race with the child's own call
  return r;
}

bool program_ended(Running& r) {
  if (r.reaped || r.pid <= 0) return true;
  struct rusage usage {};
  if (::wait4(r.pid, &r.status, WNOHANG, &usage) == r.pid) {
    r.reaped = true;
    r.max_rss_kib = usage.ru_maxrss; // the program itself: the shell execs it
  }
  return r.reaped;
}

Outcome finish_program(Running& r, double timeout_s) {
  Outcome o;
  o.pid = r.pid;
  if (r.pid <= 0) {
    o.err = std::string("fork failed: ") + std::strerror(errno);
    return o;
  }
  while (!program_ended(r)) {
    if (since(r.start) > timeout_s) {
      o.timed_out = true;
      ::kill(-r.pid, SIGTERM);
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      ::kill(-r.pid, SIGKILL);
      ::waitpid(r.pid, &r.status, 0);
      r.reaped = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  o.seconds = since(r.start);
  o.max_rss_kib = r.max_rss_kib;
  if (!o.timed_out) {
    if (WIFEXITED(r.status)) o.exit_code = WEXITSTATUS(r.status);
    if (WIFSIGNALED(r.status)) o.signal = WTERMSIG(r.status);
  }
  o.out = slurp(r.log + ".out");
  o.err = slurp(r.log + ".err");
  return o;
}

pid_t spawn_process(const std::vector<std::string>& argv) {
  std::vector<std::string> copies = argv;
  std::vector<char*> args;
  for (std::string& a : copies) args.push_back(a.data());
  args.push_back(nullptr);
  pid_t pid = -1;
  if (args.size() < 2 || ::posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0) return -1;
  return pid;
}

int wait_exit_code(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Outcome run_program(const std::string& command, const std::string& log, double timeout_s) {
  Running r = start_program(command, log);
  return finish_program(r, timeout_s);
}

} // namespace frost::test
