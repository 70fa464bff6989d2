#pragma once
/// @file advisor_report.hpp
/// @brief The outputs of frost_fft_advisor (docs/fft_advisor.md#outputs-and-exit-codes): a human table,
/// JSON with schema `frost.fft-advisor/1`, and the reference tool's `|`-separated legacy format.
#include <optional>
#include <string>
#include <vector>

#include "frost/fft/advisor_types.hpp"

namespace frost::fft {

/// Which library and machine answered; filled by the program (JSON "backend" object).
struct BackendInfo {
  std::string kind = "fftw";        ///< "cuda" or "fftw"
  bool modelled_only = false;       ///< --no-device: the CUDA model without a device
  int ordinal = 0;
  std::string name, uuid, cc;       ///< GPU name, UUID, "9.0"; or the CPU model in `name`
  int sm_count = 0;
  std::size_t total_mem_bytes = 0, l2_bytes = 0;
  int driver = 0, runtime = 0, cufft = 0; ///< CUDA version numbers (0 = unknown)
  std::string fftw;                 ///< FFTW version string
  int threads = 1;                  ///< FFTW threads
};

/// Everything a report states besides the candidate rows.
struct ReportContext {
  std::string mode;                 ///< "recommend", "find", "benchmark"
  BackendInfo backend;
  const Profile* profile = nullptr;
  AdvisorRequest request;
  std::optional<Protocol> protocol; ///< measured modes only
  std::optional<Candidate> original;///< measured in the same run (find, benchmark)
  int selected = 0;
  bool budget_exhausted = false;
  std::string source = "heuristic"; ///< "heuristic", "measured", "cache"
};

std::string format_table(const ReportContext& ctx, const std::vector<Candidate>& rows);
std::string format_json(const ReportContext& ctx, const std::vector<Candidate>& rows);
/// The reference's output: its header line, then one row per candidate; measured columns only
/// for find/benchmark (`measured` true).
std::string format_legacy(const std::vector<Candidate>& rows, bool measured);

std::string to_string(Resize r);  ///< "pad", "crop", "keep"
std::string to_string(Parity p);  ///< "any", "even", "odd"
std::string to_string(TieBreak t);///< "closest", "elements"

} // namespace frost::fft
