#pragma once
/// @file heuristic_detail.hpp
/// @brief Internals shared by the heuristic's source files (candidates, recommend, find): exact
/// window arithmetic, parity rules, request validation and the ranking order (docs/fft_advisor.md#ranking).
/// Private to frost_size_advisor; the unit tests include it to test the ordering on hand-built lists.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "frost/fft/advisor_backend.hpp"
#include "frost/fft/advisor_types.hpp"

namespace frost::fft::detail {

/// 128-bit integers for products of sizes (up to three sizes below 2^62 each times a percentage):
/// window bounds must be exact, never rounded (the golden tables sit on exact bounds such as
/// 11520 * 0.9 = 10368).
__extension__ typedef __int128 wide_t;

/// Saturates a wide value into index_t (negative values become 0).
index_t saturate(wide_t v);

/// The request's max change as an exact integer count of millionths of a percent; empty when
/// unlimited (no value, or +infinity).
std::optional<std::int64_t> change_micro_pct(const AdvisorRequest& req);

/// floor(n * (1 + p/100)) with p in millionths of a percent, saturating.
index_t grow_floor(wide_t n, std::int64_t micro_pct);
/// max(1, ceil(n * (1 - p/100))) with p in millionths of a percent.
index_t shrink_ceil(wide_t n, std::int64_t micro_pct);

/// The effective resize mode: max change 0 means Keep (docs/fft_advisor.md#request-and-validation).
Resize effective_resize(const AdvisorRequest& req);
/// True when dimension d keeps its size: unit dimension, keep mode, or d >= optimize_dims.
bool dimension_kept(const AdvisorRequest& req, int d);

/// Inclusive per-dimension size window (docs/fft_advisor.md#per-dimension-candidates) for a
/// changeable dimension. Crop never goes below 2 for n > 1 (a transformed dimension stays one).
struct Window {
  index_t lo = 1, hi = 1;
};
Window dimension_window(index_t n, Resize resize, const std::optional<std::int64_t>& micro_pct);

/// True when m satisfies the explicit parity, or (Parity::Any) the profile's rule for the kind.
bool parity_ok(index_t m, Parity parity, const Profile& profile, Precision precision, Kind kind);

/// C_d for one dimension described explicitly (so permuted requests can reuse it).
std::vector<index_t> dimension_candidates_for(index_t n, bool kept, Parity parity, Resize resize,
                                              const std::optional<std::int64_t>& micro_pct,
                                              const Profile& profile, Precision precision, Kind kind);

/// The checks of docs/fft_advisor.md#request-and-validation; frost::Error(Usage) naming the problem.
void validate_request(const AdvisorRequest& req);

/// The proximity window W of a request: req.window, or max(10, count) when 0.
int proximity_window(const AdvisorRequest& req);

/// Bytes of the input plus output buffers of one execution
/// (docs/fft_advisor.md#options-batch-and-memory), by precision.
std::size_t data_bytes(const Candidate& c);

/// The direction a kind implies: R2C forward, C2R inverse, C2C as given.
Direction implied_direction(Kind kind, Direction requested);

/// |x'y'z' - XYZ| of a candidate against the requested size.
wide_t element_distance(const Extent& size, const Extent& request);

/// Strict weak order of the ranking ("a ranks before b"); kind and direction close the order so that
/// sorting is deterministic.
bool heuristic_less(const Candidate& a, const Candidate& b, const Extent& request, TieBreak tie_break);

/// Fills kernels, kernels_total, terms and change_pct of a candidate whose size is set.
void describe(Candidate& c, const Extent& request, const Profile& profile);

/// Chooses the batch of a candidate (docs/fft_advisor.md#options-batch-and-memory) and fills
/// data_bytes and plan_bytes_estimate. Returns false when even one signal per execution exceeds the
/// limit (the candidate then describes batch 1, so its required_bytes() is the smallest requirement).
bool fit_batch(Candidate& c, index_t signals, const std::optional<std::size_t>& mem_limit,
               const ScratchModel& scratch);

} // namespace frost::fft::detail
