// frost_tune: offline autotuning tool (autotuning.md §10.2). `list` is implemented: every tunable
// kernel, its parameters, constraints, valid configuration count for this device (or for a
// reference device without a GPU), default and signature. run, bench, sweep and cache follow.
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "frost/cli/program.hpp"
#include "frost/core/error.hpp"
#include "frost/fft/file_lock.hpp"
#include "frost/tuning/kernel_spaces.hpp"
#if FROST_HAVE_CUDA
#include "frost/cuda/tuning.hpp"
#endif

namespace frost::tune_app {
namespace {

std::string config_text(const tuning::NamedConfig& c) {
  std::string s;
  for (const auto& [name, value] : c) s += (s.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return s;
}

class FrostTune : public cli::Program {
public:
  explicit FrostTune(std::string subcommand)
      : Program("frost_tune",
                "Offline autotuning of frost's CUDA kernels (autotuning.md §10.2).\n"
                "Usage: frost_tune <subcommand> [options]\n"
                "  list   tunable kernels: parameters, constraints, valid configurations on this device\n"
                "         (or on a reference 1024-thread, 48 KiB device with --device cpu / without a GPU),\n"
                "         default configuration and space signature\n"
                "(run, bench, sweep and cache are not implemented yet.)\n"
                "Example: frost_tune list --device 0"),
        subcommand_(std::move(subcommand)) {}

protected:
  void define(cli::Params& p) override {
    add_device_option(p, "auto");
    p.flag("--json", "print the list as JSON");
    p.flag("--lookup-dynamic", "fr_insert with dynamic blob weights (interpolation = dynamic) instead of the table");
  }

  void validate() override {
    if (subcommand_.empty()) throw_usage_error("missing subcommand: list");
    if (subcommand_ != "list")
      throw_usage_error("unknown subcommand '" + subcommand_ + "' (implemented: list; run, bench, sweep and cache are not yet)");
  }

  int run() override {
    std::string where = "reference device (1024 threads/block, 48 KiB shared/block): no GPU in use";
    tuning::DeviceLimits limits;
    const DeviceSelection sel = device();
#if FROST_HAVE_CUDA
    if (!sel.cpu) {
      limits = cuda::device_limits(sel.gpus.front());
      where = "CUDA device " + std::to_string(sel.gpus.front()) + ": cc " + std::to_string(limits.cc_major) + "." +
              std::to_string(limits.cc_minor) + ", " + std::to_string(limits.max_threads_per_block) +
              " threads/block, " + std::to_string(limits.max_shared_bytes_per_block / 1024) + " KiB shared/block";
    }
#else
    if (!sel.cpu) throw Error(ExitCode::Device, "frost_tune was built without CUDA; use --device cpu");
#endif
    tuning::FrInsertSettings fr;
    fr.lookup_interpolation = !params().flag_value("--lookup-dynamic");
    const std::vector<tuning::KernelSpace> spaces{
        tuning::fr_insert_space(limits, fr),           tuning::ma_correlate_space(limits),
        tuning::fourier_crop_filter_space(limits),     tuning::extrema_window_space(limits),
        tuning::extrema_full_space(limits),            tuning::reduce_space(limits)};
    if (params().flag_value("--json")) {
      nlohmann::json out{{"device", where}, {"kernels", nlohmann::json::array()}};
      for (const auto& k : spaces) {
        nlohmann::json params_json = nlohmann::json::array();
        for (const auto& p : k.space.parameters())
          params_json.push_back({{"name", p.name}, {"kind", tuning::to_string(p.kind)}, {"values", p.values}});
        nlohmann::json def = nlohmann::json::object();
        for (const auto& [name, value] : k.default_config) def[name] = value;
        out["kernels"].push_back({{"kernel", k.kernel},
                                  {"version", k.space.kernel_version()},
                                  {"parameters", params_json},
                                  {"constraints", k.space.constraints().size()},
                                  {"raw", k.space.raw_size()},
                                  {"valid", k.space.enumerate().size()},
                                  {"default", def},
                                  {"signature", fft::detail::hex64(k.space.signature())}});
      }
      std::printf("%s\n", out.dump(2).c_str());
      return 0;
    }
    std::printf("# %s\n", where.c_str());
    std::printf("%-20s %4s %8s %8s  %-16s  %s\n", "kernel", "ver", "raw", "valid", "signature", "default");
    for (const auto& k : spaces)
      std::printf("%-20s %4d %8zu %8zu  %-16s  %s\n", k.kernel.c_str(), k.space.kernel_version(), k.space.raw_size(),
                  k.space.enumerate().size(), fft::detail::hex64(k.space.signature()).c_str(), config_text(k.default_config).c_str());
    for (const auto& k : spaces) {
      std::printf("\n%s:\n", k.kernel.c_str());
      for (const auto& p : k.space.parameters()) {
        std::ostringstream values;
        for (std::size_t i = 0; i < p.values.size(); ++i) values << (i ? ", " : "") << p.values[i];
        std::printf("  %-20s %-8s {%s}\n", p.name.c_str(), tuning::to_string(p.kind), values.str().c_str());
      }
      for (const auto& c : k.space.constraints()) std::printf("  constraint: %s\n", c.id.c_str());
    }
    return 0;
  }

private:
  std::string subcommand_;
};

} // namespace
} // namespace frost::tune_app

int main(int argc, char** argv) {
  // `frost_tune <subcommand> [options]`: the subcommand is the first argument when it is not an
  // option; the program base sees the options only.
  const std::string subcommand = argc > 1 && argv[1][0] != '-' ? argv[1] : "";
  // argv[0] carries the subcommand so that the logged command line is the one typed.
  const std::string program = subcommand.empty() ? argv[0] : std::string(argv[0]) + " " + subcommand;
  std::vector<const char*> args{program.c_str()};
  for (int i = subcommand.empty() ? 1 : 2; i < argc; ++i) args.push_back(argv[i]);
  frost::tune_app::FrostTune tool(subcommand);
  return tool.main(static_cast<int>(args.size()), args.data());
}
