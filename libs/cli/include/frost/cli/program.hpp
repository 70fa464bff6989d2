#pragma once
/// @file program.hpp
/// @brief Base of every frost executable: declared parameters, the common options, the start
/// banner, signal handling and the mapping of errors to exit codes. `main` stays one line:
/// `int main(int argc, char** argv) { return MyProgram().main(argc, argv); }`.
#include <string>

#include "frost/cli/params.hpp"
#include "frost/core/device.hpp"
#include "frost/core/run_files.hpp"

namespace frost::cli {

class Program {
public:
  Program(std::string name, std::string summary);
  virtual ~Program() = default;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  /// Parses, handles --help/--version/--describe/--validate, runs, and returns the exit status.
  /// Never throws.
  int main(int argc, const char* const* argv);

  const std::string& name() const { return name_; }

protected:
  /// Declare the program's own parameters.
  virtual void define(Params& p) = 0;
  /// Cross-parameter checks after parsing; throw frost::Error(Usage) on conflicts.
  virtual void validate() {}
  /// Files the run reads and writes besides the options declared input_file()/output_file():
  /// derived outputs (half maps, the STAR beside an XMD, a batch's per-movie files) and the data
  /// files metadata names. All are checked before run(), and by --validate (run_files.hpp).
  virtual void add_run_files(RunFiles& files) const { (void)files; }
  /// The work. Return 0 on success (or a non-zero status for partial failures).
  virtual int run() = 0;

  /// Adds `--device cpu|<ids>` (alias `--dev`); call from define() in programs that can use GPUs.
  void add_device_option(Params& p, const std::string& def = "cpu");
  /// The parsed --device value (valid in validate() and run()).
  DeviceSelection device() const;

  const Params& params() const { return params_; }
  /// MPI rank from the launcher's environment (0 when not under mpirun).
  static int launcher_rank();
  /// Ranks in the launcher's environment (1 when not under mpirun).
  static int launcher_size();

private:
  void define_common();
  void apply_common();
  /// Every declared input/output option's value, then add_run_files(); checked (run_files.hpp).
  void check_files(bool validate_only) const;
  std::string command_line_;
  std::string name_, summary_;
  Params params_;
  bool has_device_ = false;
};

/// The one-line build description: program, version, git hash, build type, CUDA, FFT and MPI
/// library versions (docs/conventions.md#common-options).
std::string build_line(const std::string& program);

} // namespace frost::cli
