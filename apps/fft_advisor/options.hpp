#pragma once
// frost_fft_advisor's options (docs/fft_advisor.md#options) and the reference tool's spellings
// (docs/fft_advisor.md#subcommands-and-reference-aliases).
#include <string>
#include <vector>

#include "frost/cli/params.hpp"
#include "frost/fft/advisor_types.hpp"

namespace frost::advisor_app {

/// Declares every option.
void define_options(cli::Params& p);

/// The request the options describe; frost::Error(Usage) on contradictions.
fft::AdvisorRequest request_from(const cli::Params& p);
/// Only the transform options (kinds, placements, ...) of the command line, without a size.
fft::AdvisorRequest request_from_options_only(const cli::Params& p);
/// The measurement protocol the options describe.
fft::Protocol protocol_from(const cli::Params& p);

/// Splits the subcommand (and the reference's `-recommend N`, `-find N`, `-benchmark` tokens)
/// from the rest of the command line. `args` gets what the option parser should see.
struct SubcommandLine {
  std::string subcommand;               ///< recommend, find, benchmark, cache, wisdom, or ""
  std::vector<std::string> positional;  ///< cache action and its argument
  std::vector<std::string> args;
};
SubcommandLine split_subcommand(int argc, const char* const* argv);

} // namespace frost::advisor_app
