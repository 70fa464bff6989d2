#include "frost/cli/program.hpp"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/core/heap_limits.hpp"
#include "frost/core/log.hpp"
#include "frost/core/progress.hpp"
#include "frost/core/threads.hpp"

namespace frost::cli {

namespace {

// Interrupted runs leave no partial output behind: the temporaries of uncommitted AtomicFiles
// are unlinked, then the process ends with the documented status (130 SIGINT, 143 SIGTERM).
extern "C" void on_terminating_signal(int sig) {
  // An OutputSet renaming its files finishes first, then raises the signal again.
  if (defer_terminating_signal(sig)) return;
  remove_pending_temporaries();
  const char msg[] = "\ninterrupted: partial outputs removed\n";
  ssize_t ignored = ::write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)ignored;
  ::_exit(sig == SIGINT ? 130 : 143);
}

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_terminating_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

/// A non-negative integer (a GPU id).
bool is_device_id(const std::string& t) {
  return !t.empty() && t.size() < 6 && t.find_first_not_of("0123456789") == std::string::npos;
}

bool has_token(int argc, const char* const* argv, const char* a, const char* b = nullptr) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], a) == 0 || (b && std::strcmp(argv[i], b) == 0)) return true;
  return false;
}

} // namespace

Program::Program(std::string name, std::string summary) : name_(std::move(name)), summary_(std::move(summary)) {}

int Program::launcher_rank() {
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* v = std::getenv(var)) return std::atoi(v);
  return 0;
}

int Program::launcher_size() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"})
    if (const char* v = std::getenv(var)) return std::max(1, std::atoi(v));
  return 1;
}

void Program::add_device_option(Params& p, const std::string& def) {
  p.text("--device", def, "where to run: 'cpu', 'auto' (every visible GPU, else the CPU), or GPU ids such as 0 or 0,1 (MPI ranks take them in turn)")
      .alias("--dev")
      .in_section("Execution");
  has_device_ = true;
}

DeviceSelection Program::device() const {
  return has_device_ ? DeviceSelection::parse(params_.get_text("--device")) : DeviceSelection{};
}

void Program::define_common() {
  params_.flag("--help", "print this help (or `--help <option>` for one option) and exit").alias("-h").in_section("General");
  params_.flag("--more", "with --help: also list expert options").in_section("General");
  params_.flag("--version", "print the build description and exit").in_section("General");
  params_.flag("--describe", "print the parameters as JSON (for workflow wrappers) and exit").in_section("General");
  params_.flag("--validate", "check the command line and exit without running").in_section("General");
  params_.integer("--verbose", 1, "0 quiet, 1 normal, 2 detailed").alias("-v").range(0, 2).in_section("General");
  params_.integer("--thr", 0, "CPU threads (0: FROST_NUM_THREADS or all cores)").range(0, kMaxThreads).in_section("Execution");
  params_.choice("--progress", "auto", {"auto", "bar", "lines", "none"},
                 "progress on stderr: a bar on a terminal, lines otherwise").in_section("General");
  params_.text_optional("--log", "also append all messages to this file").meta("file").in_section("General").output_file();
}

void Program::apply_common() {
  const bool worker = launcher_rank() > 0;
  // MPI workers stay quiet unless asked: the logs users keep come from rank 0.
  set_verbosity(worker && !params_.given("--verbose") ? 0 : static_cast<int>(params_.get_int("--verbose")));
  set_default_progress_mode(worker ? ProgressMode::None : parse_progress_mode(params_.get_text("--progress")));
  set_num_threads(static_cast<int>(params_.get_int("--thr")));
}

void Program::check_files(bool validate_only) const {
  RunFiles files;
  for (const auto& p : params_.declared()) {
    if (p.role == PathRole::None || !params_.has(p.name)) continue;
    if (p.role == PathRole::Input) files.input(p.name, params_.get_text(p.name));
    else files.output(p.name, params_.get_text(p.name));
  }
  add_run_files(files);
  check_run_files(files, !validate_only);
}

int Program::main(int argc, const char* const* argv) {
  set_heap_limits(); // before any thread starts (docs/conventions.md#host-memory)
  try {
    define(params_);
    define_common();
    for (int i = 0; i < argc; ++i) command_line_ += (i ? " " : "") + std::string(argv[i]);

    // --help [option] is answered before parsing so that it works next to incomplete command lines.
    if (has_token(argc, argv, "--help", "-h")) {
      for (int i = 1; i + 1 < argc; ++i) {
        // `--help --more` (what the usage text suggests) asks for the expert options, not for the
        // help of the --more flag.
        if ((std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) &&
            std::strcmp(argv[i + 1], "--more") != 0) {
          const std::string one = params_.help_of(argv[i + 1]);
          if (!one.empty()) {
            std::cout << one;
            return 0;
          }
        }
      }
      std::cout << params_.usage(name_, summary_, has_token(argc, argv, "--more"));
      return 0;
    }
    if (has_token(argc, argv, "--version")) {
      std::cout << build_line(name_) << "\n";
      return 0;
    }
    if (has_token(argc, argv, "--describe")) {
      std::cout << params_.describe_json(name_, summary_);
      return 0;
    }
    if (argc <= 1) {
      bool needs_args = false;
      for (const auto& p : params_.declared()) needs_args = needs_args || p.required;
      if (needs_args) {
        std::cerr << params_.usage(name_, summary_);
        return static_cast<int>(ExitCode::Usage);
      }
    }

    // Scipion passes GPU ids space-separated (`--device 0 1`, docs/conventions.md#device-selection):
    // such a run of integers after --device/--dev is joined into one list ("0,1") before parsing.
    std::vector<std::string> joined;
    for (int i = 0; i < argc; ++i) {
      joined.emplace_back(argv[i]);
      const bool device_flag = has_device_ && (joined.back() == "--device" || joined.back() == "--dev");
      if (!device_flag || i + 1 >= argc) continue;
      joined.emplace_back(argv[++i]);
      while (i + 1 < argc && is_device_id(argv[i + 1]) && is_device_id(joined.back().substr(joined.back().rfind(',') + 1)))
        joined.back() += "," + std::string(argv[++i]);
    }
    std::vector<const char*> args;
    for (const auto& a : joined) args.push_back(a.c_str());
    params_.parse(static_cast<int>(args.size()), args.data());
    apply_common();
    if (has_device_) {
      device(); // parse errors in --device are usage errors, reported now
      log_detail("devices checked");
    }
    validate();
    // Inputs, outputs and their folders are checked before any work, --validate included.
    check_files(params_.flag_value("--validate"));
    if (params_.flag_value("--validate")) {
      std::cout << "command line is valid\n";
      return 0;
    }
    if (params_.given("--log")) set_log_file(params_.get_text("--log"));

    install_signal_handlers();
    log_info(build_line(name_));
    log_info("command: " + command_line_);
    log_info("host " + host_name() + ", " + std::to_string(num_threads()) + " CPU threads" +
             (has_device_ ? ", device " + device().to_string() : std::string()));
    if (has_device_) require_devices(device());
    return run();
  } catch (const Error& e) {
    if (e.code() == ExitCode::Usage) {
      std::cerr << name_ << ": " << printable(e.what()) << "\nsee '" << name_ << " --help'\n";
    } else {
      log_error(e.what());
      if (!e.where().empty()) log_detail("  raised at " + e.where());
    }
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    log_error("out of host memory");
    return static_cast<int>(ExitCode::Runtime);
  } catch (const std::exception& e) {
    log_error(std::string("unexpected failure: ") + e.what());
    return static_cast<int>(ExitCode::Runtime);
  }
}

} // namespace frost::cli
