// Fuzz target: command-line values. The input is split at NUL/newline into arguments and parsed
// against a declaration with every parameter type (flags, integers and reals with ranges,
// choices, lists, aliases) plus the tuning options every GPU program shares; every value is
// then read back, as a program's option reader does. Image addresses (`N@file:type`) and
// block addresses (`block@file`) are parsed too.
#include <string>
#include <vector>

#include "frost/cli/params.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/tuning/options.hpp"
#include "fuzz_support.hpp"

namespace {

frost::cli::Params declared() {
  frost::cli::Params p;
  p.flag("--fast", "a flag").alias("-f");
  p.integer("--box", 64, "an integer with a range").range(8, 4096);
  p.integer_required("--count", "a required integer").alias("-n");
  p.real("--sampling", 1.0, "a real number").at_least(0.01).alias("--sampling_rate");
  p.text("--sym", "c1", "text");
  p.text_optional("-o", "optional text");
  p.choice("--mode", "precise", {"precise", "fast", "grid"}, "a choice");
  p.integers("--patches", {5, 5}, "two integers");
  p.reals("--range", {0.5, 2.0}, "two reals");
  frost::cli::Param& devices = p.integers("--device", {0}, "one or more integers");
  devices.count = -1;
  frost::tuning::declare_tuning_options(p);
  return p;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace frost;
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    const char c = char(data[i]);
    if (c == '\0' || c == '\n') args.emplace_back();
    else args.back() += c;
  }
  for (const std::string& a : args) {
    fuzz::expect_errors_only([&] { io::parse_image_ref(a); });
    fuzz::expect_errors_only([&] { meta::split_block_spec(a); });
  }
  fuzz::expect_errors_only([&] {
    cli::Params p = declared();
    p.parse(args);
    for (const cli::Param& d : p.declared()) {
      if (!p.has(d.name)) continue;
      switch (d.type) {
      case cli::ParamType::Flag: p.flag_value(d.name); break;
      case cli::ParamType::Int: p.get_int(d.name); break;
      case cli::ParamType::Real: p.get_real(d.name); break;
      case cli::ParamType::Text:
      case cli::ParamType::Choice: p.get_text(d.name); break;
      case cli::ParamType::Ints: p.get_ints(d.name); break;
      case cli::ParamType::Reals: p.get_reals(d.name); break;
      }
    }
    tuning::tuning_options_from(p);
  });
  return 0;
}
