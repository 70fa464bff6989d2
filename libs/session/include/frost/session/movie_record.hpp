#pragma once
/// @file movie_record.hpp
/// @brief One movie's record in DIR/records.jsonl, schema `frost.movie-record/1`
/// (docs/session.md#records). Field names follow cryoSPARC Live's exposure attributes where
/// they exist and RELION's labels for the accumulated motion.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace frost::session {

constexpr const char* kMovieRecordSchema = "frost.movie-record/1";

struct MovieRecord {
  // what and how it ended
  std::string movie;              ///< the input path
  std::string status = "done";    ///< "done" or "failed"
  std::string reason;             ///< why it failed (required then), else empty
  std::int64_t order = 0;         ///< acquisition order (the journal's id)
  int attempts = 1;
  std::string host, device;       ///< "cpu" or "cuda:N"
  // when (Unix seconds; cryoSPARC's found_at / check_at / motion_at / ready_at)
  std::optional<double> found_at, check_at, motion_at, ready_at;
  // the movie
  std::optional<std::int64_t> movie_bytes;
  std::optional<int> width, height, frames;
  std::optional<double> pixel_size_A, dose_per_frame, pre_exposure, total_dose;
  // the outputs
  std::string micrograph, micrograph_nodw, motion_star, power_spectrum;
  std::optional<std::int64_t> micrograph_bytes;
  /// Seconds per stage in pipeline order ("read", "global", "local", "sum", "write", ...).
  std::vector<std::pair<std::string, double>> timings_s;
  // motion (Å)
  std::optional<double> accum_motion_total, accum_motion_early, accum_motion_late;
  std::optional<double> max_frame_shift_A, local_motion_rms_A, local_fit_rmsd_A;
  bool fallback = false;          ///< local alignment fell back to global
  std::string fallback_reason;
  // quality
  std::optional<double> frc_resolution_A;  ///< half-sum FRC at 0.143 (docs/session.md#half-sum-frc)
  std::optional<double> dw_hf_power_ratio; ///< high-frequency power, weighted over unweighted sum

  bool done() const { return status == "done"; }
};

/// The record as a JSON object, fields in the documented order; unknown values are null.
nlohmann::ordered_json to_json(const MovieRecord& r);
/// One line of records.jsonl ('\n' included).
std::string to_json_line(const MovieRecord& r);
/// Reads a record, checking it against the schema: std::runtime_error naming the first problem
/// (wrong schema, missing movie or status, a failure without a reason, a field of the wrong type).
MovieRecord record_from_json(const nlohmann::ordered_json& j);
/// record_from_json() of one line of text (ordered: the stages of timings_s keep their order).
MovieRecord parse_record_line(const std::string& line);

} // namespace frost::session
