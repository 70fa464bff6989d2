#pragma once
/// @file heuristic.hpp
/// @brief The size recommendation algorithm of docs/fft_advisor.md#recommendation-algorithm: kernel model,
/// per-dimension candidates and filter, combination with the proximity window, option expansion with batch
/// and memory, ranking; and `find`, which measures the best of them (docs/fft_advisor.md#find).
#include <vector>

#include "frost/core/error.hpp"
#include "frost/fft/advisor_backend.hpp"
#include "frost/fft/advisor_types.hpp"

namespace frost::fft {

/// No configuration satisfies the request (exit code 1 of frost_fft_advisor); the message names
/// the reason (empty dimension window, memory limit with the smallest requirement found, ...).
class NoCandidate : public Error {
public:
  explicit NoCandidate(const std::string& why) : Error(ExitCode::Runtime, why) {}
};

/// True when every prime factor of m is allowed by the profile (including its single extra prime).
bool is_smooth(index_t m, const Profile& profile);
/// k(m) (docs/fft_advisor.md#kernel-estimate) for one dimension (kBadKernels when m is not smooth).
int kernel_estimate(index_t m, const Profile& profile, Precision precision);
/// Number of distinct primes of {2,3,5,7} dividing m ("terms", docs/fft_advisor.md#terms).
int terms(index_t m);
/// Smallest power of two >= n (integer bit operations).
index_t next_power_of_two(index_t n);

/// C_d (docs/fft_advisor.md#per-dimension-candidates) for dimension d of the request (in ascending
/// size order). Empty when no size fits.
std::vector<index_t> dimension_candidates(const AdvisorRequest& req, const Profile& profile, int d,
                                          Precision precision, Kind kind);
/// F_d (docs/fft_advisor.md#kernel-filter): the closest member of C_d plus every member with k <=
/// k_min + 2 (ascending).
std::vector<index_t> filter_dimension(const std::vector<index_t>& candidates, index_t n, const Profile& profile,
                                      Precision precision);

/// Ranked configurations (docs/fft_advisor.md#recommendation-algorithm), at most req.count. Throws
/// NoCandidate. Cropping never shrinks a dimension below 2 (size 1 would mean "no transform" and
/// win every ranking).
std::vector<Candidate> recommend(const AdvisorRequest& req, const Profile& profile, const ScratchModel& scratch);

/// The request's own size as a configuration (first allowed option combination), for the
/// "original" column of find and benchmark.
Candidate original_configuration(const AdvisorRequest& req, const Profile& profile, const ScratchModel& scratch);

/// Result of measuring candidates (docs/fft_advisor.md#find).
struct FindResult {
  std::vector<Candidate> ranked;  ///< measured candidates, ascending per-signal median (failures last)
  Candidate original;             ///< the request's own size, measured in the same run
  int selected = 0;               ///< index into `ranked` of the chosen configuration (docs/fft_advisor.md#find)
  bool budget_exhausted = false;
};

/// Measures the top `top` heuristic candidates plus the original size with `measurer` and ranks
/// them (docs/fft_advisor.md#find). The window is req.window (at least `top`), or max(10, count, 2
/// x `top`) when the request leaves it at 0; a budget of 0 or less is no limit. Throws NoCandidate
/// when nothing could be measured.
FindResult find(const AdvisorRequest& req, const Profile& profile, const ScratchModel& scratch, Measurer& measurer,
                const Protocol& protocol, int top);

/// benchmark mode (docs/fft_advisor.md#benchmark-mode): the request as is (no size change) for
/// every allowed option combination, measured; ranked as find ranks.
FindResult benchmark(const AdvisorRequest& req, const Profile& profile, const ScratchModel& scratch,
                     Measurer& measurer, const Protocol& protocol);

} // namespace frost::fft
