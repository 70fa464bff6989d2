// Output formats of frost_fft_advisor (docs/fft_advisor.md#outputs-and-exit-codes): JSON schema
// fields and types, the reference's legacy header byte for byte, the table's columns; and profile
// files (docs/fft_advisor.md#profiles).
#include <nlohmann/json.hpp>

#include "frost/core/atomic_file.hpp"
#include "frost/fft/advisor_report.hpp"
#include "frost/fft/heuristic.hpp"
#include "frost/fft/profile_file.hpp"
#include "frost/test/support.hpp"

namespace frost::fft {
namespace {

std::vector<Candidate> some_rows(AdvisorRequest& r) {
  r.size = {2273, 1, 1};
  r.signals = 6;
  return recommend(r, builtin_profile("cuda12"), *worst_case_scratch_model());
}

TEST(AdvisorReport, JsonFollowsTheSchema) {
  AdvisorRequest r;
  const auto rows = some_rows(r);
  ReportContext ctx;
  ctx.mode = "recommend";
  ctx.backend.kind = "cuda";
  ctx.backend.modelled_only = true;
  ctx.profile = &builtin_profile("cuda12");
  ctx.request = r;
  const auto j = nlohmann::json::parse(format_json(ctx, rows));
  EXPECT_EQ(j.at("schema"), "frost.fft-advisor/1");
  EXPECT_EQ(j.at("tool").at("name"), "frost_fft_advisor");
  EXPECT_EQ(j.at("mode"), "recommend");
  EXPECT_EQ(j.at("backend").at("kind"), "cuda");
  EXPECT_EQ(j.at("profile").at("name"), "cuda12");
  EXPECT_EQ(j.at("request").at("size"), nlohmann::json({2273, 1, 1}));
  EXPECT_TRUE(j.at("request").at("max_change_pct").is_null());
  EXPECT_TRUE(j.at("protocol").is_null());
  ASSERT_EQ(j.at("candidates").size(), rows.size());
  const auto& c = j.at("candidates").at(0);
  for (const char* field : {"rank", "size", "batch", "kind", "precision", "placement", "direction", "plan", "rotated",
                            "change_pct", "kernels_est", "terms", "primes", "data_bytes", "plan_bytes_estimate",
                            "plan_bytes_actual", "plan_ms", "ms_per_signal", "ms_per_exec", "melem_per_s",
                            "speedup_vs_original", "status", "error"})
    EXPECT_TRUE(c.contains(field)) << field;
  EXPECT_EQ(c.at("size"), nlohmann::json({2304, 1, 1})); // golden (docs/fft_advisor.md#worked-examples)
  EXPECT_EQ(c.at("primes"), nlohmann::json({{"2", 8}, {"3", 2}}));
  EXPECT_TRUE(c.at("ms_per_signal").is_null()) << "unmeasured fields are null, not 0";
  EXPECT_TRUE(c.at("plan_ms").is_null());
  EXPECT_EQ(j.at("source"), "heuristic");
}

TEST(AdvisorReport, LegacyHeaderIsTheReferencesByteForByte) {
  AdvisorRequest r;
  const auto rows = some_rows(r);
  const std::string rec = format_legacy(rows, false);
  EXPECT_EQ(rec.substr(0, rec.find('\n')), "rank|placeness|type|data|X|Y|Z|batch");
  EXPECT_EQ(rec.substr(rec.find('\n') + 1, rec.find('\n', rec.find('\n') + 1) - rec.find('\n') - 1),
            "many|out-of-place|R2R forward|float|2304|1|1|6");
  const std::string meas = format_legacy(rows, true);
  EXPECT_EQ(meas.substr(0, meas.find('\n')),
            "rank|placeness|type|data|X|Y|Z|batch|plan size estimate (MB)|plan size estimate 2 (MB)|plan size actual "
            "(MB)|data size (MB)|plan time (ms)|exec time (ms/signal)|exec time of batch (ms)|elements|performance "
            "(1k elem of signal/ms)|error message");
}

TEST(AdvisorReport, TableHasTheSpecColumns) {
  AdvisorRequest r;
  const auto rows = some_rows(r);
  ReportContext ctx;
  ctx.mode = "recommend";
  ctx.profile = &builtin_profile("cuda12");
  ctx.request = r;
  const std::string t = format_table(ctx, rows);
  for (const char* col : {"shape", "batch", "kind", "prec", "place", "dir", "change%", "terms", "plan MiB", "data MiB",
                          "plan ms", "ms/signal", "ms/exec", "speedup", "Melem/s", "status"})
    EXPECT_NE(t.find(col), std::string::npos) << col;
  EXPECT_NE(t.find("2304x1x1"), std::string::npos);
}

TEST(ProfileFile, RoundTripsEveryBuiltinProfile) {
  test::TempDir d;
  for (const std::string& name : builtin_profile_names()) {
    const Profile& p = builtin_profile(name);
    write_text_file_atomic(d.file(name + ".json"), profile_to_json(p));
    const Profile q = load_profile_file(d.file(name + ".json"));
    EXPECT_EQ(q.name, p.name);
    EXPECT_EQ(q.version, p.version);
    EXPECT_EQ(q.primes, p.primes);
    EXPECT_EQ(q.regular_limit, p.regular_limit);
    EXPECT_EQ(q.caps, p.caps);
    for (index_t m : {630, 2401, 4096, 5120, 6000, 10648})
      EXPECT_EQ(kernel_estimate(m, q, Precision::F32), kernel_estimate(m, p, Precision::F32)) << name << " " << m;
  }
  write_text_file_atomic(d.file("bad.json"), "{\"name\": \"x\"}");
  try {
    load_profile_file(d.file("bad.json"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos);
  }
}

} // namespace
} // namespace frost::fft
