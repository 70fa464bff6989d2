// T1 (space enumeration and constraint filtering), T2 (launch geometry checks) and T3 (space
// signatures) of docs/tune.md#cpu-tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "frost/core/error.hpp"
#include "frost/cache/text_hash.hpp"
#include "frost/tuning/geometry.hpp"
#include "frost/tuning/kernel_spaces.hpp"

namespace frost::tuning {
namespace {

/// Limits with `threads` per block and no shared-memory limit to speak of (the published golden
/// counts are given "without the shared memory constraint").
DeviceLimits threads(std::int64_t n) {
  DeviceLimits l;
  l.max_threads_per_block = n;
  l.max_shared_bytes_per_block = std::int64_t(1) << 40;
  return l;
}

FrInsertSettings dynamic_interp() {
  FrInsertSettings s;
  s.lookup_interpolation = false;
  return s;
}

using cache::hex64;

/// Every golden space (docs/tune.md#the-spaces-of-frost-kernels) at 1024 threads, for the checks
/// that hold for all of them.
std::vector<KernelSpace> golden_spaces(const DeviceLimits& l) {
  return {fr_insert_space(l, dynamic_interp()), fr_insert_space(l, FrInsertSettings{}), ma_correlate_space(l),
          fourier_crop_filter_space(l), extrema_window_space(l), extrema_full_space(l), reduce_space(l)};
}

TEST(TuningSpaceT1, GoldenCountsOfTheKernelSpaces) {
  const std::int64_t t[] = {1024, 512, 256};
  // fr_insert version 2 (kernel_spaces.cpp); the published space had 155 / 85 / 65 and 275 / 150 / 115.
  const std::size_t fr_dynamic[] = {192, 104, 80}, fr_lookup[] = {384, 208, 160};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(t[i]);
    EXPECT_EQ(fr_insert_space(threads(t[i]), dynamic_interp()).space.enumerate().size(), fr_dynamic[i]);
    EXPECT_EQ(fr_insert_space(threads(t[i]), FrInsertSettings{}).space.enumerate().size(), fr_lookup[i]);
  }
  EXPECT_EQ(ma_correlate_space(threads(1024)).space.enumerate().size(), 168u);
  EXPECT_EQ(ma_correlate_space(threads(512)).space.enumerate().size(), 148u);
  EXPECT_EQ(fourier_crop_filter_space(threads(1024)).space.enumerate().size(), 54u);
  EXPECT_EQ(fourier_crop_filter_space(threads(512)).space.enumerate().size(), 49u);
  EXPECT_EQ(extrema_window_space(threads(1024)).space.enumerate().size(), 36u);
  EXPECT_EQ(extrema_window_space(threads(512)).space.enumerate().size(), 32u);
  EXPECT_EQ(extrema_full_space(threads(1024)).space.enumerate().size(), 6u);
  EXPECT_EQ(reduce_space(threads(1024)).space.enumerate().size(), 6u);
}

TEST(TuningSpaceT1, EnumerationAgreesWithBruteForceOverTheCrossProduct) {
  for (std::int64_t t : {1024, 512, 256}) {
    DeviceLimits l = threads(t);
    l.max_shared_bytes_per_block = 48 * 1024; // the shared-memory constraint active too
    for (const KernelSpace& k : golden_spaces(l)) {
      SCOPED_TRACE(k.kernel + " at " + std::to_string(t));
      const auto valid = k.space.enumerate();
      const auto raw = k.space.enumerate_raw();
      EXPECT_EQ(raw.size(), k.space.raw_size());
      // Brute force: filter the raw cross product (canonical order) with every constraint.
      std::vector<Configuration> filtered;
      for (const Configuration& c : raw) {
        const auto broken = k.space.violated(c);
        EXPECT_EQ(broken.empty(), k.space.valid(c));
        if (broken.empty()) filtered.push_back(c);
      }
      // Same set, same (canonical) order: every enumerated configuration satisfies every
      // constraint, and every rejected one violates at least one.
      EXPECT_EQ(valid, filtered);
    }
  }
}

TEST(TuningSpaceT1, CanonicalOrderHasTheLastParameterFastest) {
  const auto configs = fourier_crop_filter_space(threads(1024)).space.enumerate();
  ASSERT_GE(configs.size(), 3u);
  EXPECT_EQ(configs[0], (Configuration{1, 1}));
  EXPECT_EQ(configs[1], (Configuration{1, 2}));
  EXPECT_EQ(configs.back(), (Configuration{128, 8}));
  EXPECT_TRUE(std::is_sorted(configs.begin(), configs.end()));
}

TEST(TuningSpaceT1, SharedBlobTableNeedsRoomForTheTable) {
  // The table (10,000 floats) fits in 48 KiB; with 32 KiB per block every SHARED_BLOB_TABLE = 1
  // configuration goes, and only those.
  const auto unlimited = fr_insert_space(threads(1024), FrInsertSettings{}).space.enumerate();
  DeviceLimits l = threads(1024);
  l.max_shared_bytes_per_block = 32 * 1024;
  const KernelSpace k = fr_insert_space(l, FrInsertSettings{});
  const auto limited = k.space.enumerate();
  const std::size_t sbt = *k.space.param_index("SHARED_BLOB_TABLE");
  EXPECT_EQ(limited.size(), 192u);
  for (const Configuration& c : unlimited) {
    const bool kept = std::find(limited.begin(), limited.end(), c) != limited.end();
    EXPECT_EQ(kept, c[sbt] == 0);
  }
  // Dynamic weights never use the table.
  for (const Configuration& c : fr_insert_space(threads(1024), dynamic_interp()).space.enumerate())
    EXPECT_EQ(c[sbt], 0);
}

TEST(TuningSpaceT1, DefaultsAreValidConfigurations) {
  for (const KernelSpace& k : golden_spaces(DeviceLimits{})) {
    const auto c = k.space.from_named(k.default_config);
    ASSERT_TRUE(c.has_value()) << k.kernel;
    EXPECT_TRUE(k.space.valid(*c)) << k.kernel;
    EXPECT_EQ(k.space.named(*c), k.default_config);
  }
}

TEST(TuningSpaceT1, DeclarationMistakesAreCaught) {
  TuningSpace s(1);
  s.param("A", ParamKind::Compile, {1, 2});
  EXPECT_THROW(s.param("A", ParamKind::Launch, {3}), Error);
  EXPECT_THROW(s.param("B", ParamKind::Launch, {}), Error);
  EXPECT_THROW(s.param("C", ParamKind::Launch, {1, 1}), Error);
  EXPECT_THROW(s.param("not a name", ParamKind::Launch, {1}), Error);
  EXPECT_THROW(s.constraint("c", {"Z"}, [](const Assignment&) { return true; }), Error);
  s.param("B", ParamKind::Launch, {1, 2});
  // A predicate that reads an undeclared parameter is refused when evaluated.
  s.constraint("reads_b", {"A"}, [](const Assignment& a) { return a["B"] > 0; });
  EXPECT_THROW(s.enumerate(), Error);
  EXPECT_THROW(s.constraint("reads_b", {"A"}, [](const Assignment&) { return true; }), Error);
  EXPECT_THROW(s.param("D", ParamKind::Launch, {1}), Error); // parameters come first
}

TEST(TuningSpaceT1, NamedConfigurationsRoundTrip) {
  const KernelSpace k = fr_insert_space(DeviceLimits{}, FrInsertSettings{});
  for (const Configuration& c : k.space.enumerate()) ASSERT_EQ(k.space.from_named(k.space.named(c)), c);
  NamedConfig reordered = k.default_config;
  std::reverse(reordered.begin(), reordered.end());
  EXPECT_EQ(k.space.from_named(reordered), k.space.from_named(k.default_config));
  NamedConfig bad = k.default_config;
  bad[0].second = 17; // not a listed BLOCK_DIM
  EXPECT_FALSE(k.space.from_named(bad));
  bad = k.default_config;
  bad.pop_back();
  EXPECT_FALSE(k.space.from_named(bad));
  EXPECT_EQ(k.space.describe(*k.space.from_named(k.default_config)),
            "BLOCK_DIM=16 GRID_DIM_Z=65535 SHARED_BLOB_TABLE=0 TILE=1 PRECOMPUTE_BLOB_VAL=1");
}

TEST(TuningSpaceT2, GeometryChecksFindEveryKindOfBadLaunch) {
  DeviceLimits l;
  LaunchGeometry g;
  g.grid = {100, 10, 1};
  g.block = {32, 8, 1};
  EXPECT_EQ(geometry_problem(g, l), "");
  EXPECT_FALSE(g.needs_shared_optin());
  LaunchGeometry zero = g;
  zero.grid.y = 0;
  EXPECT_NE(geometry_problem(zero, l), "");
  LaunchGeometry fat = g;
  fat.block = {64, 32, 1}; // 2048 threads
  EXPECT_NE(geometry_problem(fat, l), "");
  LaunchGeometry tall = g;
  tall.grid.y = 70000;
  EXPECT_NE(geometry_problem(tall, l), "");
  LaunchGeometry deep = g;
  deep.block = {1, 1, 65};
  EXPECT_NE(geometry_problem(deep, l), "");
  LaunchGeometry shared = g;
  shared.dynamic_shared_bytes = 61952; // above the 48 KiB default
  EXPECT_NE(geometry_problem(shared, l), "");
  EXPECT_TRUE(shared.needs_shared_optin());
  l.max_shared_bytes_per_block = 227 * 1024; // after opt-in on an H100
  EXPECT_EQ(geometry_problem(shared, l), "");
}

TEST(TuningSpaceT3, SignaturesOfTheFrozenSpaces) {
  const DeviceLimits l;
  EXPECT_EQ(hex64(fr_insert_space(l, dynamic_interp()).space.signature()), "f7f3d521aded8c35");
  EXPECT_EQ(hex64(fr_insert_space(l, FrInsertSettings{}).space.signature()), "4400f938d3fef6a6");
  EXPECT_EQ(hex64(ma_correlate_space(l).space.signature()), "2b6db80d7a2a6868");
  EXPECT_EQ(hex64(fourier_crop_filter_space(l).space.signature()), "7b5755864ab5905a");
  EXPECT_EQ(hex64(extrema_window_space(l).space.signature()), "e553773598acaa2c");
  EXPECT_EQ(hex64(extrema_full_space(l).space.signature()), "28d583839eb8707e");
  EXPECT_EQ(hex64(reduce_space(l).space.signature()), hex64(extrema_full_space(l).space.signature()));
}

TEST(TuningSpaceT3, SignatureIsFnv1aOfTheCanonicalText) {
  TuningSpace s(3);
  s.param("A", ParamKind::Compile, {1, 2}).param("B", ParamKind::Launch, {4});
  s.constraint("c1", {"A", "B"}, [](const Assignment& a) { return a["A"] < a["B"]; });
  EXPECT_EQ(s.canonical_text(), "kernel_version=3\nparam A compile 1,2\nparam B launch 4\nconstraint c1\n");
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s.canonical_text()) {
    h ^= c;
    h *= 1099511628211ull;
  }
  EXPECT_EQ(s.signature(), h);
}

TEST(TuningSpaceT3, AnyDeclarationChangeChangesTheSignature) {
  const auto build = [](int version, std::vector<std::int64_t> a_values, ParamKind b_kind, const std::string& id) {
    TuningSpace s(version);
    s.param("A", ParamKind::Compile, std::move(a_values)).param("B", b_kind, {1, 2});
    s.constraint(id, {"A"}, [](const Assignment&) { return true; });
    return s.signature();
  };
  const std::uint64_t base = build(1, {1, 2, 4}, ParamKind::Launch, "c1");
  EXPECT_EQ(build(1, {1, 2, 4}, ParamKind::Launch, "c1"), base);
  std::set<std::uint64_t> all = {base, build(2, {1, 2, 4}, ParamKind::Launch, "c1"),
                                 build(1, {1, 2, 8}, ParamKind::Launch, "c1"), build(1, {1, 2}, ParamKind::Launch, "c1"),
                                 build(1, {2, 1, 4}, ParamKind::Launch, "c1"), build(1, {1, 2, 4}, ParamKind::Compile, "c1"),
                                 build(1, {1, 2, 4}, ParamKind::Launch, "c2")};
  EXPECT_EQ(all.size(), 7u);
  // What the predicates capture (device limits, table size) is not part of the signature.
  DeviceLimits small;
  small.max_threads_per_block = 256;
  FrInsertSettings other_table;
  other_table.blob_table_bytes = 20000;
  EXPECT_EQ(fr_insert_space(small, other_table).space.signature(),
            fr_insert_space(DeviceLimits{}, FrInsertSettings{}).space.signature());
}

} // namespace
} // namespace frost::tuning
