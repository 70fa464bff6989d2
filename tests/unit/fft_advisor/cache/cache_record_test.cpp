// C8: a cache record survives JSON and back with every field intact, and damaged lines are
// recognised as malformed.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "frost/fft/advisor_cache.hpp"

namespace frost::fft {
namespace {

/// A record where every field differs from its default.
CacheRecord full_record() {
  CacheRecord r;
  r.key = "1|cuda|NVIDIA H100|9.0|132|79|driver 12040|cuda12/cuda12-r1|size=2273x1x1|policy=tuned|top=20";
  Candidate& c = r.answer;
  c.size = {2304, 6, 3};
  c.batch = 6;
  c.precision = Precision::F64;
  c.kind = Kind::C2C;
  c.direction = Direction::Inverse;
  c.placement = Placement::InPlace;
  c.batched = false;
  c.rotated = true;
  c.change_pct = 1.3638363396392433; // not exactly representable in few digits
  c.kernels = {1, 2, 3};
  c.kernels_total = 6;
  c.terms = 2;
  c.data_bytes = (std::size_t(1) << 40) + 17;
  c.plan_bytes_estimate = 123456789;
  Measurement m;
  m.status = "ok";
  m.error = "";
  m.plan_ms = 12.5;
  m.median_ms_per_signal = 0.0123456789;
  m.mean_ms_per_signal = 0.0125;
  m.min_ms_per_signal = 0.0119;
  m.std_ms_per_signal = 1e-4;
  m.samples = 37;
  m.ms_per_exec = 0.0740740734;
  m.plan_bytes_actual = 65536;
  c.measured = m;
  c.speedup_vs_original = 1.75;
  r.ms_per_signal = 0.0123456789;
  r.original_ms_per_signal = 0.021;
  r.candidates_measured = 21;
  r.protocol.warmup = 3;
  r.protocol.reps = 15;
  r.protocol.min_total_ms = 25.5;
  r.protocol.max_samples = 150;
  r.protocol.cold_cache = false;
  r.protocol.seed = 4000000000u;
  r.protocol.budget_s = 42.25;
  r.protocol.fftw_threads = 4;
  r.protocol.fftw_effort = FftRigor::Patient;
  r.source = "measured";
  r.tool_version = "1.0.0";
  r.host = "node-17";
  r.time_iso8601 = "2025-11-22T04:00:00.123Z";
  r.device_uuid = "GPU-0c1d2e3f-aaaa-bbbb-cccc-0123456789ab";
  r.required_bytes = (std::size_t(1) << 40) + 123456806;
  return r;
}

void expect_same(const Measurement& a, const Measurement& b) {
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.plan_ms, b.plan_ms);
  EXPECT_EQ(a.median_ms_per_signal, b.median_ms_per_signal);
  EXPECT_EQ(a.mean_ms_per_signal, b.mean_ms_per_signal);
  EXPECT_EQ(a.min_ms_per_signal, b.min_ms_per_signal);
  EXPECT_EQ(a.std_ms_per_signal, b.std_ms_per_signal);
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_EQ(a.ms_per_exec, b.ms_per_exec);
  EXPECT_EQ(a.plan_bytes_actual, b.plan_bytes_actual);
}

void expect_same(const CacheRecord& a, const CacheRecord& b) {
  EXPECT_EQ(a.key, b.key);
  const Candidate &x = a.answer, &y = b.answer;
  EXPECT_EQ(x.size, y.size);
  EXPECT_EQ(x.batch, y.batch);
  EXPECT_EQ(x.precision, y.precision);
  EXPECT_EQ(x.kind, y.kind);
  EXPECT_EQ(x.direction, y.direction);
  EXPECT_EQ(x.placement, y.placement);
  EXPECT_EQ(x.batched, y.batched);
  EXPECT_EQ(x.rotated, y.rotated);
  EXPECT_EQ(x.change_pct, y.change_pct); // bit-exact: JSON numbers are written round-trippable
  EXPECT_EQ(x.kernels, y.kernels);
  EXPECT_EQ(x.kernels_total, y.kernels_total);
  EXPECT_EQ(x.terms, y.terms);
  EXPECT_EQ(x.data_bytes, y.data_bytes);
  EXPECT_EQ(x.plan_bytes_estimate, y.plan_bytes_estimate);
  ASSERT_EQ(x.measured.has_value(), y.measured.has_value());
  if (x.measured) expect_same(*x.measured, *y.measured);
  EXPECT_EQ(x.speedup_vs_original, y.speedup_vs_original);
  EXPECT_EQ(a.ms_per_signal, b.ms_per_signal);
  EXPECT_EQ(a.original_ms_per_signal, b.original_ms_per_signal);
  EXPECT_EQ(a.candidates_measured, b.candidates_measured);
  EXPECT_EQ(a.protocol.warmup, b.protocol.warmup);
  EXPECT_EQ(a.protocol.reps, b.protocol.reps);
  EXPECT_EQ(a.protocol.min_total_ms, b.protocol.min_total_ms);
  EXPECT_EQ(a.protocol.max_samples, b.protocol.max_samples);
  EXPECT_EQ(a.protocol.cold_cache, b.protocol.cold_cache);
  EXPECT_EQ(a.protocol.seed, b.protocol.seed);
  EXPECT_EQ(a.protocol.budget_s, b.protocol.budget_s);
  EXPECT_EQ(a.protocol.fftw_threads, b.protocol.fftw_threads);
  EXPECT_EQ(a.protocol.fftw_effort, b.protocol.fftw_effort);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.tool_version, b.tool_version);
  EXPECT_EQ(a.host, b.host);
  EXPECT_EQ(a.time_iso8601, b.time_iso8601);
  EXPECT_EQ(a.device_uuid, b.device_uuid);
  EXPECT_EQ(a.required_bytes, b.required_bytes);
}

TEST(CacheRecordJson, RoundTripsEveryField) {
  const CacheRecord r = full_record();
  const std::string line = record_to_json(r);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_LE(line.size(), 4095u);
  const auto back = record_from_json(line);
  ASSERT_TRUE(back.has_value());
  expect_same(r, *back);
  EXPECT_EQ(record_to_json(*back), line);
}

TEST(CacheRecordJson, RoundTripsAHeuristicRecordWithoutMeasurements) {
  CacheRecord r = full_record();
  r.answer.measured.reset();
  r.answer.speedup_vs_original = 0;
  r.ms_per_signal.reset();
  r.original_ms_per_signal.reset();
  r.candidates_measured = 0;
  r.source = "heuristic";
  const auto back = record_from_json(record_to_json(r));
  ASSERT_TRUE(back.has_value());
  expect_same(r, *back);
}

TEST(CacheRecordJson, FailedMeasurementKeepsItsErrorText) {
  CacheRecord r = full_record();
  r.answer.measured->status = "error";
  r.answer.measured->error = "CUFFT_ALLOC_FAILED: \"quoted\" \\ and\nnewline";
  const std::string line = record_to_json(r);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const auto back = record_from_json(line);
  ASSERT_TRUE(back.has_value());
  expect_same(r, *back);
}

TEST(CacheRecordJson, UsesTheCandidateFieldNamesOfTheJsonOutput) {
  const nlohmann::json j = nlohmann::json::parse(record_to_json(full_record()));
  const nlohmann::json& a = j.at("answer");
  EXPECT_EQ(a.at("size"), nlohmann::json({2304, 6, 3}));
  EXPECT_EQ(a.at("kind"), "c2c");
  EXPECT_EQ(a.at("precision"), "f64");
  EXPECT_EQ(a.at("placement"), "in");
  EXPECT_EQ(a.at("direction"), "inverse");
  EXPECT_EQ(a.at("plan"), "single");
  EXPECT_EQ(a.at("kernels_est"), nlohmann::json({1, 2, 3}));
  EXPECT_EQ(a.at("ms_per_signal").at("n"), 37);
  EXPECT_TRUE(a.at("error").is_null());
  for (const char* f : {"batch", "rotated", "change_pct", "terms", "data_bytes", "plan_bytes_estimate",
                        "plan_bytes_actual", "plan_ms", "ms_per_exec", "speedup_vs_original", "status"})
    EXPECT_TRUE(a.contains(f)) << f;
  EXPECT_EQ(j.at("protocol").at("cache_state"), "warm");
  EXPECT_EQ(j.at("hash").get<std::string>().size(), 16u);
}

TEST(CacheRecordJson, UnmeasuredFieldsAreNull) {
  CacheRecord r = full_record();
  r.answer.measured.reset();
  r.answer.speedup_vs_original = 0;
  r.ms_per_signal.reset();
  const nlohmann::json j = nlohmann::json::parse(record_to_json(r));
  for (const char* f : {"plan_ms", "ms_per_signal", "ms_per_exec", "plan_bytes_actual", "status", "error",
                        "speedup_vs_original"})
    EXPECT_TRUE(j.at("answer").at(f).is_null()) << f;
  EXPECT_TRUE(j.at("ms_per_signal").is_null());
}

TEST(CacheRecordJson, RejectsMalformedLines) {
  const std::string good = record_to_json(full_record());
  EXPECT_FALSE(record_from_json("").has_value());
  EXPECT_FALSE(record_from_json("{not json").has_value());
  EXPECT_FALSE(record_from_json("[1,2,3]").has_value());
  EXPECT_FALSE(record_from_json("{\"record\":1}").has_value());
  EXPECT_FALSE(record_from_json(good.substr(0, good.size() / 2)).has_value()); // torn write
  nlohmann::json j = nlohmann::json::parse(good);
  j["key"] = "another key"; // the stored hash no longer matches
  EXPECT_FALSE(record_from_json(j.dump()).has_value());
  j = nlohmann::json::parse(good);
  j["record"] = 2; // a future format
  EXPECT_FALSE(record_from_json(j.dump()).has_value());
  j = nlohmann::json::parse(good);
  j["answer"]["batch"] = "six";
  EXPECT_FALSE(record_from_json(j.dump()).has_value());
  j = nlohmann::json::parse(good);
  j["answer"]["kind"] = "r2r";
  EXPECT_FALSE(record_from_json(j.dump()).has_value());
  j = nlohmann::json::parse(good);
  j["required_bytes"] = -5;
  EXPECT_FALSE(record_from_json(j.dump()).has_value());
  EXPECT_TRUE(record_from_json(good).has_value());
}

} // namespace
} // namespace frost::fft
