// C8: the canonical cache key (docs/fft_advisor.md#cache-key), pinned as literal strings (a change here
// invalidates every user's cache and needs a record version bump), and its FNV-1a hash.
#include <gtest/gtest.h>

#include "frost/fft/advisor_cache.hpp"

namespace frost::fft {
namespace {

Profile named_profile(const std::string& name, const std::string& version) {
  Profile p;
  p.name = name;
  p.version = version;
  return p;
}

/// The example of docs/fft_advisor.md#outputs-and-exit-codes: 2273 floats, 6 signals, find on an H100.
AdvisorRequest request_1d() {
  AdvisorRequest r;
  r.size = {2273, 1, 1};
  r.signals = 6;
  return r;
}
CacheContext context_h100() {
  return {"cuda|NVIDIA H100 80GB HBM3|9.0|132|79", "driver 12040|runtime 12040|cufft 11203", Policy::Tuned, 20};
}

/// Every list with both alternatives, given in non-canonical order and with a duplicate.
AdvisorRequest request_2d_crop() {
  AdvisorRequest r;
  r.size = {3838, 3710, 1};
  r.precisions = {Precision::F64, Precision::F32, Precision::F64};
  r.kinds = {Kind::C2C, Kind::R2C};
  r.directions = {Direction::Inverse, Direction::Forward};
  r.placements = {Placement::InPlace, Placement::OutOfPlace};
  r.batched = {false, true};
  r.resize = Resize::Crop;
  r.max_change_pct = 10.0;
  r.optimize_dims = 2;
  r.parity = {Parity::Even, Parity::Odd, Parity::Any};
  r.allow_rotation = true;
  r.allow_transposition = true;
  r.tie_break = TieBreak::Elements;
  r.mem_limit_bytes = std::size_t(1) << 30;
  return r;
}
CacheContext context_fftw() {
  return {"fftw|Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz|avx512|4", "fftw-3.3.10-sse2-avx2-avx512", Policy::Tuned,
          10};
}

AdvisorRequest request_3d_keep() {
  AdvisorRequest r;
  r.size = {200, 180, 64};
  r.signals = 8;
  r.kinds = {Kind::C2R, Kind::R2C};
  r.directions = {Direction::Inverse}; // meaningless without C2C: the key says "implied"
  r.resize = Resize::Keep;
  r.max_change_pct = 1.0 / 3.0;
  r.square_only = true;
  return r;
}
CacheContext context_portable() { return {"portable", "none", Policy::Portable, 0}; }

TEST(CacheKey, GoldenOneDimensionalFind) {
  EXPECT_EQ(cache_key(request_1d(), named_profile("cuda12", "cuda12-r1"), context_h100()),
            "1|cuda|NVIDIA H100 80GB HBM3|9.0|132|79|driver 12040|runtime 12040|cufft 11203|cuda12/cuda12-r1"
            "|size=2273x1x1|signals=6|precision=f32|kind=r2c|direction=implied|placement=out|batched=yes"
            "|mode=pad|max_change=unlimited|optimize_dims=all|parity=any,any,any|square_only=no|rotation=no"
            "|transposition=no|tie_break=closest|policy=tuned|top=20");
}

TEST(CacheKey, GoldenTwoDimensionalCropWithEveryAlternative) {
  EXPECT_EQ(cache_key(request_2d_crop(), named_profile("fftw", "fftw-r1"), context_fftw()),
            "1|fftw|Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz|avx512|4|fftw-3.3.10-sse2-avx2-avx512|fftw/fftw-r1"
            "|size=3838x3710x1|signals=1|precision=f32,f64|kind=r2c,c2c|direction=forward,inverse"
            "|placement=out,in|batched=yes,no|mode=crop|max_change=10.000|optimize_dims=2|parity=even,odd,any"
            "|square_only=no|rotation=yes|transposition=yes|tie_break=elements|policy=tuned|top=10");
}

TEST(CacheKey, GoldenThreeDimensionalKeepPortable) {
  EXPECT_EQ(cache_key(request_3d_keep(), named_profile("portable", "portable-r1"), context_portable()),
            "1|portable|none|portable/portable-r1|size=200x180x64|signals=8|precision=f32|kind=r2c,c2r"
            "|direction=implied|placement=out|batched=yes|mode=keep|max_change=0.333|optimize_dims=all"
            "|parity=any,any,any|square_only=yes|rotation=no|transposition=no|tie_break=closest"
            "|policy=portable|top=0");
}

TEST(CacheKey, MemoryLimitIsNotPartOfTheKey) {
  const Profile p = named_profile("cuda12", "cuda12-r1");
  AdvisorRequest a = request_1d(), b = request_1d();
  a.mem_limit_bytes = 1 << 20;
  b.mem_limit_bytes.reset();
  EXPECT_EQ(cache_key(a, p, context_h100()), cache_key(b, p, context_h100()));
}

TEST(CacheKey, EveryKeyedFieldChangesTheKey) {
  const Profile p = named_profile("cuda12", "cuda12-r1");
  const std::string base = cache_key(request_2d_crop(), p, context_fftw());
  const auto differs = [&](auto change) {
    AdvisorRequest r = request_2d_crop();
    CacheContext c = context_fftw();
    Profile q = p;
    change(r, c, q);
    return cache_key(r, q, c) != base;
  };
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.size.y = 3711; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.signals = 2; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.precisions = {Precision::F32}; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.kinds = {Kind::C2C}; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.directions = {Direction::Forward}; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.placements = {Placement::InPlace}; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.batched = {true}; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.resize = Resize::Pad; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.max_change_pct = 10.001; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.max_change_pct.reset(); }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.optimize_dims = 1; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.parity[2] = Parity::Even; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.square_only = true; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.allow_rotation = false; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.allow_transposition = false; }));
  EXPECT_TRUE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.tie_break = TieBreak::Closest; }));
  EXPECT_TRUE(differs([](AdvisorRequest&, CacheContext& c, Profile&) { c.policy = Policy::Portable; }));
  EXPECT_TRUE(differs([](AdvisorRequest&, CacheContext& c, Profile&) { c.top = 20; }));
  EXPECT_TRUE(differs([](AdvisorRequest&, CacheContext& c, Profile&) { c.device_identity += "x"; }));
  EXPECT_TRUE(differs([](AdvisorRequest&, CacheContext& c, Profile&) { c.library_versions += "x"; }));
  EXPECT_TRUE(differs([](AdvisorRequest&, CacheContext&, Profile& q) { q.version = "cuda12-r2"; }));
  // Not keyed: the memory limit, and rounding below three decimals.
  EXPECT_FALSE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.mem_limit_bytes.reset(); }));
  EXPECT_FALSE(differs([](AdvisorRequest& r, CacheContext&, Profile&) { r.max_change_pct = 10.0001; }));
}

TEST(CacheKey, HashIsFnv1a64) {
  // Reference values of the FNV-1a 64-bit function.
  EXPECT_EQ(cache_key_hash(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(cache_key_hash("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(cache_key_hash("foobar"), 0x85944171f73967e8ull);
}

TEST(CacheDir, PrecedenceOfExplicitDirAndEnvironment) {
  const char* keep[] = {"FROST_CACHE_DIR", "XDG_CACHE_HOME", "HOME"};
  std::string saved[3];
  bool had[3];
  for (int i = 0; i < 3; ++i) {
    const char* v = std::getenv(keep[i]);
    had[i] = v != nullptr;
    saved[i] = v ? v : "";
  }
  ::setenv("FROST_CACHE_DIR", "/a/frost", 1);
  ::setenv("XDG_CACHE_HOME", "/b", 1);
  ::setenv("HOME", "/c", 1);
  EXPECT_EQ(default_cache_dir("/given"), "/given");
  EXPECT_EQ(default_cache_dir(), "/a/frost");
  ::unsetenv("FROST_CACHE_DIR");
  EXPECT_EQ(default_cache_dir(), "/b/frost");
  ::setenv("XDG_CACHE_HOME", "", 1);
  EXPECT_EQ(default_cache_dir(), "/c/.cache/frost");
  for (int i = 0; i < 3; ++i) {
    if (had[i]) ::setenv(keep[i], saved[i].c_str(), 1);
    else ::unsetenv(keep[i]);
  }
}

} // namespace
} // namespace frost::fft
