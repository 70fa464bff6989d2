#include "frost/session/movie_record.hpp"

#include <cmath>
#include <stdexcept>

#include "frost/cache/json_fields.hpp"

namespace frost::session {

namespace {

using Json = nlohmann::ordered_json;

template <class T>
Json opt(const std::optional<T>& v) {
  if (!v) return Json(nullptr);
  if constexpr (std::is_floating_point<T>::value) return cache::number_or_null<Json>(*v);
  else return Json(*v);
}

/// Optional members: absent and null both read as "unknown"; a value of the wrong type throws.
template <class J>
std::optional<double> read_double(const J& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (!it->is_number()) throw std::runtime_error(std::string("field '") + name + "' is not a number");
  return it->template get<double>();
}
template <class T, class J>
std::optional<T> read_int(const J& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer()) throw std::runtime_error(std::string("field '") + name + "' is not an integer");
  return it->template get<T>();
}
template <class J>
std::string read_text(const J& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_string()) throw std::runtime_error(std::string("field '") + name + "' is not a string");
  return it->template get<std::string>();
}

} // namespace

nlohmann::ordered_json to_json(const MovieRecord& r) {
  Json j;
  j["schema"] = kMovieRecordSchema;
  j["movie"] = r.movie;
  j["status"] = r.status;
  j["reason"] = cache::text_or_null<Json>(r.reason);
  j["order"] = r.order;
  j["attempts"] = r.attempts;
  j["host"] = cache::text_or_null<Json>(r.host);
  j["device"] = cache::text_or_null<Json>(r.device);
  j["found_at"] = opt(r.found_at);
  j["check_at"] = opt(r.check_at);
  j["motion_at"] = opt(r.motion_at);
  j["ready_at"] = opt(r.ready_at);
  j["movie_bytes"] = opt(r.movie_bytes);
  j["width"] = opt(r.width);
  j["height"] = opt(r.height);
  j["frames"] = opt(r.frames);
  j["pixel_size_A"] = opt(r.pixel_size_A);
  j["dose_per_frame"] = opt(r.dose_per_frame);
  j["pre_exposure"] = opt(r.pre_exposure);
  j["total_dose"] = opt(r.total_dose);
  j["micrograph"] = cache::text_or_null<Json>(r.micrograph);
  j["micrograph_nodw"] = cache::text_or_null<Json>(r.micrograph_nodw);
  j["motion_star"] = cache::text_or_null<Json>(r.motion_star);
  j["power_spectrum"] = cache::text_or_null<Json>(r.power_spectrum);
  j["micrograph_bytes"] = opt(r.micrograph_bytes);
  Json timings = Json::object();
  for (const auto& [stage, seconds] : r.timings_s) timings[stage] = cache::number_or_null<Json>(seconds);
  j["timings_s"] = timings;
  j["rlnAccumMotionTotal"] = opt(r.accum_motion_total);
  j["rlnAccumMotionEarly"] = opt(r.accum_motion_early);
  j["rlnAccumMotionLate"] = opt(r.accum_motion_late);
  j["max_frame_shift_A"] = opt(r.max_frame_shift_A);
  j["local_motion_rms_A"] = opt(r.local_motion_rms_A);
  j["local_fit_rmsd_A"] = opt(r.local_fit_rmsd_A);
  j["fallback"] = r.fallback;
  j["fallback_reason"] = cache::text_or_null<Json>(r.fallback_reason);
  j["frc_resolution_A"] = opt(r.frc_resolution_A);
  j["dw_hf_power_ratio"] = opt(r.dw_hf_power_ratio);
  return j;
}

std::string to_json_line(const MovieRecord& r) { return to_json(r).dump() + "\n"; }

MovieRecord record_from_json(const nlohmann::ordered_json& j) {
  if (!j.is_object()) throw std::runtime_error("a record is a JSON object");
  if (cache::get_string(j, "schema") != kMovieRecordSchema)
    throw std::runtime_error("schema is '" + cache::get_string(j, "schema") + "', not " + kMovieRecordSchema);
  MovieRecord r;
  r.movie = cache::get_string(j, "movie");
  if (r.movie.empty()) throw std::runtime_error("field 'movie' is empty");
  r.status = cache::get_string(j, "status");
  if (r.status != "done" && r.status != "failed")
    throw std::runtime_error("field 'status' is '" + r.status + "', not done or failed");
  r.reason = read_text(j, "reason");
  if (r.status == "failed" && r.reason.empty()) throw std::runtime_error("a failed record has no 'reason'");
  r.order = read_int<std::int64_t>(j, "order").value_or(0);
  r.attempts = read_int<int>(j, "attempts").value_or(1);
  r.host = read_text(j, "host");
  r.device = read_text(j, "device");
  r.found_at = read_double(j, "found_at");
  r.check_at = read_double(j, "check_at");
  r.motion_at = read_double(j, "motion_at");
  r.ready_at = read_double(j, "ready_at");
  r.movie_bytes = read_int<std::int64_t>(j, "movie_bytes");
  r.width = read_int<int>(j, "width");
  r.height = read_int<int>(j, "height");
  r.frames = read_int<int>(j, "frames");
  r.pixel_size_A = read_double(j, "pixel_size_A");
  r.dose_per_frame = read_double(j, "dose_per_frame");
  r.pre_exposure = read_double(j, "pre_exposure");
  r.total_dose = read_double(j, "total_dose");
  r.micrograph = read_text(j, "micrograph");
  r.micrograph_nodw = read_text(j, "micrograph_nodw");
  r.motion_star = read_text(j, "motion_star");
  r.power_spectrum = read_text(j, "power_spectrum");
  r.micrograph_bytes = read_int<std::int64_t>(j, "micrograph_bytes");
  if (const auto it = j.find("timings_s"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) throw std::runtime_error("field 'timings_s' is not an object");
    for (const auto& [stage, seconds] : it->items()) {
      if (!seconds.is_number() && !seconds.is_null())
        throw std::runtime_error("timing '" + stage + "' is not a number");
      r.timings_s.emplace_back(stage, seconds.is_null() ? std::nan("") : seconds.get<double>());
    }
  }
  r.accum_motion_total = read_double(j, "rlnAccumMotionTotal");
  r.accum_motion_early = read_double(j, "rlnAccumMotionEarly");
  r.accum_motion_late = read_double(j, "rlnAccumMotionLate");
  r.max_frame_shift_A = read_double(j, "max_frame_shift_A");
  r.local_motion_rms_A = read_double(j, "local_motion_rms_A");
  r.local_fit_rmsd_A = read_double(j, "local_fit_rmsd_A");
  if (const auto it = j.find("fallback"); it != j.end() && !it->is_null()) r.fallback = cache::get_bool(j, "fallback");
  r.fallback_reason = read_text(j, "fallback_reason");
  r.frc_resolution_A = read_double(j, "frc_resolution_A");
  r.dw_hf_power_ratio = read_double(j, "dw_hf_power_ratio");
  return r;
}

} // namespace frost::session

namespace frost::session {

MovieRecord parse_record_line(const std::string& line) { return record_from_json(nlohmann::ordered_json::parse(line)); }

} // namespace frost::session
