// frost_fft_advisor: recommends (and on a GPU or with FFTW, measures) FFT sizes and settings
// (docs/fft_advisor.md#the-program-frost_fft_advisor). The same logic is the SizeAdvisor library
// call every program uses.
#include <iostream>
#include <memory>

#include "frost/cli/program.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/core/version.hpp"
#include "frost/fft/advisor_backend.hpp"
#include "frost/fft/advisor_cache.hpp"
#include "frost/fft/cached_find.hpp"
#include "frost/fft/advisor_report.hpp"
#include "frost/fft/heuristic.hpp"
#include "frost/fft/profile_file.hpp"
#include "frost/fft/size_advisor.hpp"
#include "frost/fft/versions.hpp"
#include "options.hpp"
#include "subcommands.hpp"

namespace frost::advisor_app {
namespace {

class FftAdvisor : public cli::Program {
public:
  explicit FftAdvisor(SubcommandLine line)
      : Program("frost_fft_advisor",
                "Recommends FFT sizes and settings for cuFFT (GPU) and FFTW (CPU), and measures them.\n"
                "Usage: frost_fft_advisor <subcommand> [options]\n"
                "  recommend   heuristic ranking only, no measurements (works without a GPU)\n"
                "  find        heuristic + measurement of the top --top candidates and the original size\n"
                "  benchmark   measure the given size as is, for every allowed option combination\n"
                "  cache       list | show KEY | clear | export FILE | import FILE | compact\n"
                "  wisdom      CPU: plan --sizes with --fftw-effort and save FFTW wisdom for this machine\n"
                "              (saved after every plan: an interrupted run keeps what it planned)\n"
                "Example: frost_fft_advisor recommend --size 3838x3710 --mode crop --max-change 10"),
        line_(std::move(line)) {}

protected:
  void define(cli::Params& p) override { define_options(p); }

  void validate() override {
    const std::string& s = line_.subcommand;
    if (s.empty()) throw_usage_error("missing subcommand: recommend, find, benchmark, cache or wisdom");
    if (s == "cache" || s == "wisdom") return;
    request_from(params()); // usage errors surface before any work
    if (params().flag_value("--no-device") && s != "recommend")
      throw_usage_error(s + " measures and so needs a device; --no-device works with recommend only");
    check_named_device();
  }

  int run() override {
    require_named_device();
    if (params().flag_value("-q")) set_verbosity(0);
    if (line_.subcommand == "cache") return run_cache(params(), line_.positional);
    if (line_.subcommand == "wisdom") return run_wisdom(params());
    return run_advisor();
  }

private:
  int run_advisor();
  /// --device with --no-device or --backend fftw is a usage error (also under --validate).
  void check_named_device() const {
    const cli::Params& p = params();
    if (!p.given("--device")) return;
    const int id = static_cast<int>(p.get_int("--device"));
    if (p.flag_value("--no-device"))
      throw_usage_error("--device " + std::to_string(id) + " and --no-device contradict each other");
    if (p.get_text("--backend") == "fftw")
      throw_usage_error("--device " + std::to_string(id) + " names a GPU, but --backend fftw measures on the CPU");
  }
  /// A GPU named by --device must exist, as in every frost program (exit 4): without one the
  /// answer would silently be the CPU's. Checked when the run starts, as the other programs check
  /// their devices, so that --validate checks the command line on a machine without the GPU.
  void require_named_device() const {
    const cli::Params& p = params();
    if (!p.given("--device") || line_.subcommand == "cache" || line_.subcommand == "wisdom") return;
    DeviceSelection gpu;
    gpu.cpu = false;
    gpu.gpus = {static_cast<int>(p.get_int("--device"))};
    require_devices(gpu);
  }
  SubcommandLine line_;
};

[[noreturn]] void busy_device(const std::string& dir) {
  FROST_THROW(ExitCode::Runtime, "another process is measuring on this device (lock in " + dir +
                                     "); try again or raise --lock-wait-s");
}

fft::BackendInfo backend_info(bool cuda, bool modelled_only, int device, int threads) {
  fft::BackendInfo b;
  b.threads = threads;
  b.fftw = fft::fftw_version();
  if (!cuda) {
    b.kind = "fftw";
    b.name = cpu_model();
    return b;
  }
  b.kind = "cuda";
  b.modelled_only = modelled_only;
  b.ordinal = device;
  if (modelled_only) return b;
  const CudaDeviceInfo info = cuda_device_info(device);
  b.name = info.name;
  b.uuid = info.uuid;
  b.cc = std::to_string(info.cc_major) + "." + std::to_string(info.cc_minor);
  b.sm_count = info.sm_count;
  b.total_mem_bytes = info.total_memory;
  b.l2_bytes = info.l2_bytes;
  b.driver = info.driver_version;
  b.runtime = info.runtime_version;
  b.cufft = cufft_version_number();
  return b;
}

int FftAdvisor::run_advisor() {
  const cli::Params& p = params();
  const std::string& mode = line_.subcommand;
  fft::AdvisorRequest req = request_from(p);
  const fft::Protocol protocol = protocol_from(p);

  // Backend: the CUDA model without a device (--no-device), a GPU, or FFTW on the CPU.
  const bool no_device = p.flag_value("--no-device");
  std::string backend = p.get_text("--backend");
  if (backend == "auto") backend = no_device || cuda_device_count() > 0 ? "cuda" : "fftw";
  if (no_device && backend != "cuda") throw_usage_error("--no-device models cuFFT; it goes with --backend cuda or auto");
  const bool cuda = backend == "cuda";
  const int device = static_cast<int>(p.get_int("--device"));

  std::unique_ptr<fft::Measurer> measurer;
  if (!no_device) measurer = cuda ? fft::make_cufft_measurer(device) : fft::make_fftw_measurer(protocol.fftw_threads);

  fft::Profile profile;
  if (p.given("--profile-file")) {
    profile = fft::load_profile_file(p.get_text("--profile-file"));
  } else {
    const std::string name = p.get_text("--profile");
    profile = fft::builtin_profile(name == "auto" ? (cuda ? "cuda12" : "fftw") : name);
  }

  std::unique_ptr<fft::ScratchModel> scratch;
  const std::string model = p.get_text("--plan-mem-model");
  if (model == "device" || model == "auto") scratch = measurer ? measurer->device_scratch_model() : nullptr;
  if (model == "device" && !scratch) throw_usage_error("--plan-mem-model device needs a GPU (cuFFT) backend");
  if (model == "paper") scratch = fft::paper_scratch_model();
  if (!scratch) scratch = fft::worst_case_scratch_model();
  if (!req.mem_limit_bytes && measurer && measurer->default_memory_limit() > 0)
    req.mem_limit_bytes = measurer->default_memory_limit();

  fft::ReportContext ctx;
  ctx.mode = mode;
  ctx.backend = backend_info(cuda, no_device, device, protocol.fftw_threads);
  ctx.profile = &profile;
  ctx.request = req;
  std::vector<fft::Candidate> rows;

  if (mode == "recommend") {
    rows = fft::recommend(req, profile, *scratch);
  } else {
    ctx.protocol = protocol;
    const int top = static_cast<int>(p.get_int("--top"));
    fft::CacheSettings cache;
    cache.dir = fft::default_cache_dir(p.given("--cache-dir") ? p.get_text("--cache-dir") : "");
    cache.use_cache = !p.flag_value("--no-cache");
    cache.refresh = p.flag_value("--refresh");
    cache.lock_wait_s = p.get_real("--lock-wait-s");
    fft::FindResult found;
    if (mode == "find") {
      const fft::CachedFind cached = fft::find_cached(req, profile, *scratch, *measurer, protocol, top,
                                                      fft::Policy::Tuned, cache);
      if (cached.lock_busy) busy_device(cache.dir);
      found = cached.result;
      ctx.source = fft::to_string(cached.source);
      if (cached.source == fft::Source::Cache)
        log_info("answer from the cache in " + cache.dir + " (use --refresh to measure again)");
    } else {
      // benchmark: measured as is, never cached, but still one measuring process per device.
      fft::DeviceLock lock(cache.dir, measurer->device_uuid(), cache.lock_wait_s);
      if (!lock.held()) busy_device(cache.dir);
      if (cache.use_cache) measurer->begin_session(cache.dir);
      found = fft::benchmark(req, profile, *scratch, *measurer, protocol);
      if (cache.use_cache) measurer->end_session(cache.dir);
      ctx.source = "measured";
    }
    rows = found.ranked;
    if (ctx.source == "measured") ctx.original = found.original; // a cache hit has no original
    ctx.selected = found.selected;
    ctx.budget_exhausted = found.budget_exhausted;
  }

  const std::string format = p.get_text("--format");
  const std::string text = format == "json"     ? fft::format_json(ctx, rows)
                           : format == "legacy" ? fft::format_legacy(rows, mode != "recommend")
                                                : fft::format_table(ctx, rows);
  if (p.given("--output")) {
    write_text_file_atomic(p.get_text("--output"), text);
  } else {
    std::cout << text;
  }
  return 0;
}

} // namespace
} // namespace frost::advisor_app

int main(int argc, char** argv) {
  using namespace frost::advisor_app;
  SubcommandLine line = split_subcommand(argc, argv);
  // The program base sees the options only; argv[0] carries the subcommand so that the logged
  // command line is the one the user typed.
  const std::string program = line.subcommand.empty() ? argv[0] : std::string(argv[0]) + " " + line.subcommand;
  std::vector<const char*> args{program.c_str()};
  for (const auto& a : line.args) args.push_back(a.c_str());
  FftAdvisor advisor(line);
  return advisor.main(static_cast<int>(args.size()), args.data());
}
