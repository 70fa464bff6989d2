// T7 of docs/tune.md#cpu-tests, the record and key half: canonical key strings, their hash, and
// the JSON record read back field by field; what makes a line malformed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/cache/text_hash.hpp"
#include "frost/tuning/kernel_spaces.hpp"
#include "frost/tuning/phase.hpp"
#include "frost/tuning/problem_key.hpp"
#include "frost/tuning/record.hpp"
#include "tuning_test_util.hpp"

namespace frost::tuning {
namespace {

using cache::hex64;

/// The three fixed problems of the golden key test.
std::vector<TuningKey> fixed_keys() {
  const DeviceLimits l;
  TuningKey a;
  a.kernel = {"fr_insert", kFrInsertVersion, fr_insert_space(l, FrInsertSettings{}).space.signature()};
  a.device = test::h100();
  a.software = test::cuda124();
  a.problem = ProblemKey()
                  .size("spec", {156, 79})
                  .size("vol", {315, 315, 158})
                  .text("cplx", "f32")
                  .integer("blob_order", 0)
                  .real("blob_r", 1.9)
                  .real("alpha", 15)
                  .text("interp", "lookup")
                  .bucket("batch", 1500)
                  .str();
  TuningKey b;
  b.kernel = {"ma_correlate", kMaCorrelateVersion, ma_correlate_space(l).space.signature()};
  b.device = {"NVIDIA GeForce RTX 3090", 8, 6, 82, 23};
  b.software = {11040, 11040, "aot", "0.1"};
  b.problem = ProblemKey().size("size", {4096, 2049}).text("cplx", "f32").bucket("batch", 40).str();
  TuningKey c;
  c.kernel = {"extrema_full", kExtremaFullVersion, extrema_full_space(l).space.signature()};
  c.device = {"Tesla V100-SXM2-16GB", 7, 0, 80, 15};
  c.software = {12020, 12010, "12010", "0.1"};
  c.problem = ProblemKey().size("size", {256, 256}).text("type", "f32").bucket("batch", 1).str();
  return {a, b, c};
}

TEST(TuningRecordT7, CanonicalKeyStringsAreGolden) {
  const auto keys = fixed_keys();
  EXPECT_EQ(keys[0].str(), "1|fr_insert|2|4400f938d3fef6a6|NVIDIA H100 80GB HBM3|9.0|132|79|12040|12040|12040|1.0|"
                          "spec=156x79;vol=315x315x158;cplx=f32;blob_order=0;blob_r=1.900;alpha=15.000;interp=lookup;"
                          "batch<=2048");
  EXPECT_EQ(keys[1].str(), "1|ma_correlate|1|2b6db80d7a2a6868|NVIDIA GeForce RTX 3090|8.6|82|23|11040|11040|aot|0.1|"
                          "size=4096x2049;cplx=f32;batch<=64");
  EXPECT_EQ(keys[2].str(), "1|extrema_full|1|28d583839eb8707e|Tesla V100-SXM2-16GB|7.0|80|15|12020|12010|12010|0.1|"
                          "size=256x256;type=f32;batch<=1");
  for (const TuningKey& k : keys) {
    EXPECT_EQ(key_hash(k.str()), hex64(test::reference_fnv1a64(k.str())));
    const auto back = TuningKey::parse(k.str());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->str(), k.str());
    EXPECT_TRUE(same_kernel(back->kernel, k.kernel) && same_model(back->device, k.device) &&
                same_software(back->software, k.software));
  }
}

TEST(TuningRecordT7, HashIsFnv1a64) {
  // Published FNV-1a 64 test vectors.
  EXPECT_EQ(key_hash(""), "cbf29ce484222325");
  EXPECT_EQ(key_hash("a"), "af63dc4c8601ec8c");
  EXPECT_EQ(key_hash("foobar"), "85944171f73967e8");
}

TEST(TuningRecordT7, KeyFieldsAreCheckedAndNormalised) {
  TuningKey k = test::make_key("fr_insert", 0xabc, "spec=64x33");
  k.device.name = "odd|name";
  EXPECT_NE(k.str().find("|odd/name|"), std::string::npos); // '|' cannot break the fields
  k.problem = "a=1|b=2";
  EXPECT_THROW((void)k.str(), Error);
  EXPECT_FALSE(TuningKey::parse("1|fr_insert|1"));
  EXPECT_FALSE(TuningKey::parse("2" + test::make_key("k", 1, "p=1").str().substr(1))); // other schema
  std::string bad_cc = test::make_key("k", 1, "p=1").str();
  bad_cc.replace(bad_cc.find("|9.0|"), 5, "|9x|");
  EXPECT_FALSE(TuningKey::parse(bad_cc));
}

TEST(TuningRecordT7, DeviceModelAndSoftwareFromTheCoreDeviceInfo) {
  CudaDeviceInfo info;
  info.valid = true;
  info.name = "NVIDIA H100 80GB HBM3";
  info.cc_major = 9;
  info.sm_count = 132;
  info.total_memory = 85021163520ull; // 79.2 GiB
  info.driver_version = 12040;
  info.runtime_version = 12020;
  const DeviceModel m = device_model(info);
  EXPECT_EQ(m.memory_gib, 79);
  EXPECT_EQ(m.multiprocessors, 132);
  const SoftwareStack s = software_stack(info);
  EXPECT_EQ(s.driver, 12040);
  EXPECT_EQ(s.runtime, 12020);
  EXPECT_EQ(s.nvrtc, "aot");
  EXPECT_EQ(s.frost, frost_major_minor());
  EXPECT_EQ(std::count(s.frost.begin(), s.frost.end(), '.'), 1);
}

TEST(TuningRecordT7, ProblemKeysPrintAndParse) {
  const ProblemKey k = ProblemKey().size("spec", {156, 79}).real("blob_r", 1.9).real("z", -0.0001).bucket("batch", 1500);
  EXPECT_EQ(k.str(), "spec=156x79;blob_r=1.900;z=0.000;batch<=2048");
  const auto back = ProblemKey::parse(k.str());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->str(), k.str());
  ASSERT_EQ(back->fields().size(), 4u);
  EXPECT_EQ(back->fields()[3].op, "<=");
  EXPECT_EQ(bucket_of(1), 1);
  EXPECT_EQ(bucket_of(1024), 1024);
  EXPECT_EQ(bucket_of(1025), 2048);
  EXPECT_THROW(ProblemKey().text("a", "x|y"), Error);
  EXPECT_THROW(ProblemKey().text("a", "1").text("a", "2"), Error);
  EXPECT_THROW(ProblemKey().size("a", {0, 3}), Error);
  EXPECT_FALSE(ProblemKey::parse("a=1;;b=2"));
  EXPECT_FALSE(ProblemKey::parse("a<3"));
}

TEST(TuningRecordT7, RecordRoundTripFieldByField) {
  TuningRecord r;
  r.key = fixed_keys()[0].str();
  r.best = {{"BLOCK_DIM", 16}, {"GRID_DIM_Z", 1}, {"SHARED_BLOB_TABLE", 1}, {"TILE", 2},
            {"PRECOMPUTE_BLOB_VAL", 1}};
  r.best_ms = 12.41;
  r.default_ms = 19.87;
  r.top = {{r.best, 12.41}, {{{"BLOCK_DIM", 20}, {"GRID_DIM_Z", 1}}, 12.77}};
  r.avg_over_best = 1.84;
  r.explored = 50;
  r.space_size = 275;
  r.invalid = 3;
  r.searcher = "random";
  r.seed = 0xfedcba9876543210ull; // needs all 64 bits
  r.mode = "dynamic";
  r.protocol = {1, 3, 10};
  r.source = "measured";
  r.gpu_uuid = "GPU-1234";
  r.host = "node17";
  r.tool = "frost 1.0.3";
  r.time = "2026-11-22T10:15:00Z";
  const std::string line = record_to_json(r);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.rfind("{\"schema\":1,\"key\":", 0), 0u) << line; // field order of docs/tune.md#record
  EXPECT_NE(line.find("\"hash\":\"" + key_hash(r.key) + "\""), std::string::npos);
  const ParsedLine p = parse_record_line(line);
  ASSERT_EQ(p.kind, LineKind::Record);
  const TuningRecord& b = *p.record;
  EXPECT_EQ(b.schema, 1);
  EXPECT_EQ(b.key, r.key);
  EXPECT_EQ(b.best, r.best); // declaration order kept
  EXPECT_EQ(b.best_ms, r.best_ms);
  EXPECT_EQ(b.default_ms, r.default_ms);
  ASSERT_EQ(b.top.size(), 2u);
  EXPECT_EQ(b.top[1].config, r.top[1].config);
  EXPECT_EQ(b.top[1].ms, 12.77);
  EXPECT_EQ(b.avg_over_best, r.avg_over_best);
  EXPECT_EQ(b.explored, 50);
  EXPECT_EQ(b.space_size, 275);
  EXPECT_EQ(b.invalid, 3);
  EXPECT_EQ(b.searcher, "random");
  EXPECT_EQ(b.seed, r.seed);
  EXPECT_EQ(b.mode, "dynamic");
  EXPECT_EQ(b.protocol.warmup, 1);
  EXPECT_EQ(b.protocol.min_samples, 3);
  EXPECT_EQ(b.protocol.min_ms, 10);
  EXPECT_EQ(b.source, "measured");
  EXPECT_EQ(b.gpu_uuid, "GPU-1234");
  EXPECT_EQ(b.host, "node17");
  EXPECT_EQ(b.tool, "frost 1.0.3");
  EXPECT_EQ(b.time, r.time);
  EXPECT_EQ(record_to_json(b), line);
  // Optional measurements may be null.
  r.default_ms.reset();
  r.avg_over_best.reset();
  const ParsedLine q = parse_record_line(record_to_json(r));
  ASSERT_EQ(q.kind, LineKind::Record);
  EXPECT_FALSE(q.record->default_ms);
  EXPECT_FALSE(q.record->avg_over_best);
}

TEST(TuningRecordT7, MalformedAndForeignLines) {
  const std::string good = record_to_json(test::make_record(test::make_key("k", 1, "p=1").str(), 1.0));
  ASSERT_EQ(parse_record_line(good).kind, LineKind::Record);
  const auto kind = [](const std::string& s) { return parse_record_line(s).kind; };
  EXPECT_EQ(kind("not json"), LineKind::Malformed);
  EXPECT_EQ(kind(good.substr(0, good.size() / 2)), LineKind::Malformed); // torn line
  EXPECT_EQ(kind("[1,2]"), LineKind::Malformed);
  std::string wrong_hash = good;
  wrong_hash.replace(wrong_hash.find("\"hash\":\"") + 8, 4, "0000");
  EXPECT_EQ(kind(wrong_hash), LineKind::Malformed);
  std::string wrong_type = good;
  wrong_type.replace(wrong_type.find("\"explored\":50"), 13, "\"explored\":\"50\"");
  EXPECT_EQ(kind(wrong_type), LineKind::Malformed);
  std::string missing = good;
  missing.replace(missing.find("\"mode\":\"dynamic\","), 17, "");
  EXPECT_EQ(kind(missing), LineKind::Malformed);
  std::string other = good;
  other.replace(other.find("\"schema\":1"), 10, "\"schema\":2");
  EXPECT_EQ(kind(other), LineKind::OtherSchema);
  EXPECT_EQ(kind("{\"schema\":7,\"anything\":true}"), LineKind::OtherSchema);
  std::string huge = good;
  huge.insert(1, "\"pad\":\"" + std::string(kMaxRecordLineBytes, 'x') + "\",");
  EXPECT_EQ(kind(huge), LineKind::Malformed);
}

TEST(TuningRecordT7, RecordFromAPhase) {
  const KernelSpace k = extrema_full_space(DeviceLimits{});
  const auto configs = k.space.enumerate();
  SearchPhase phase(configs, make_searcher(SearcherKind::Exhaustive, configs, {}), StopRules{});
  const double t[] = {6, 5, 4, 3, 2, 1.5};
  run_phase(phase, [&](const Configuration& c) { return t[*index_of(configs, c)]; });
  const TuningRecord r = record_from_phase("key", k.space, phase, 7, "offline", 5);
  EXPECT_EQ(r.best, (NamedConfig{{"BLOCK", 1024}}));
  EXPECT_EQ(r.best_ms, 1.5);
  EXPECT_EQ(r.default_ms, 1.5);
  ASSERT_EQ(r.top.size(), kRecordTop);
  EXPECT_EQ(r.top[4].config, (NamedConfig{{"BLOCK", 64}}));
  EXPECT_DOUBLE_EQ(*r.avg_over_best, (6 + 5 + 4 + 3 + 2 + 1.5) / 6 / 1.5);
  EXPECT_EQ(r.explored, 6);
  EXPECT_EQ(r.space_size, 6);
  EXPECT_EQ(r.searcher, "exhaustive");
  EXPECT_EQ(r.seed, 7u);
  EXPECT_EQ(r.mode, "offline");
}

} // namespace
} // namespace frost::tuning
