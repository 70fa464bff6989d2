#pragma once
// One command line run through the shell, timed: wall time and the CPU time of the children.
#include <string>

namespace frost::bench {

struct CommandTime {
  double wall_s = 0;
  double cpu_s = 0; ///< user + system time of the command and its children
  int status = 0;   ///< the shell's exit status
};

/// Runs `command` (output to `log`, appended) and times it.
CommandTime run_timed(const std::string& command, const std::string& log);

/// The directory holding `program` from FROST_RELION_BIN, else from PATH; empty when absent.
std::string find_relion_program(const std::string& program);

} // namespace frost::bench
