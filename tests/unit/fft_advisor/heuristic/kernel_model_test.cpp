// C1 (docs/fft_advisor.md#cpu-tests): the kernel model against the golden table of
// docs/fft_advisor.md#kernel-estimate, plus the profile constants and the small integer helpers.
#include <gtest/gtest.h>

#include "frost/core/error.hpp"
#include "frost/fft/heuristic.hpp"

namespace frost::fft {
namespace {

struct KernelRow {
  index_t m;
  Precision precision;
  int cuda12;
  int cuda8; // kBadKernels where the size is not smooth for cuda8
};

// Reference values of docs/fft_advisor.md#kernel-estimate, verbatim.
const KernelRow kGolden[] = {
    {2, Precision::F32, 1, 1},
    {630, Precision::F32, 1, 4},
    {2401, Precision::F32, 1, 2},
    {4096, Precision::F32, 1, 2},
    {5103, Precision::F32, 1, 2},
    {5120, Precision::F32, 2, 2},
    {6000, Precision::F32, 3, 3},
    {6561, Precision::F32, 2, 2},
    {8192, Precision::F32, 2, 2},
    {10648, Precision::F32, 2, kBadKernels},
    {index_t{1} << 22, Precision::F32, 2, 3},
    {index_t{1} << 23, Precision::F32, 3, 3},
    {2187, Precision::F64, 1, 2},
    {2400, Precision::F64, 3, 3},
    {index_t{1} << 22, Precision::F64, 2, 3},
};

TEST(HeuristicKernelModel, GoldenTableCuda12AndCuda8) {
  const Profile& cuda12 = builtin_profile("cuda12");
  const Profile& cuda8 = builtin_profile("cuda8");
  for (const KernelRow& row : kGolden) {
    SCOPED_TRACE("m = " + std::to_string(row.m) + (row.precision == Precision::F64 ? " double" : " float"));
    EXPECT_EQ(kernel_estimate(row.m, cuda12, row.precision), row.cuda12);
    EXPECT_EQ(kernel_estimate(row.m, cuda8, row.precision), row.cuda8);
  }
  EXPECT_FALSE(is_smooth(10648, cuda8)); // 11 is not a cuda8 prime
}

TEST(HeuristicKernelModel, RegularLimitBoundaries) {
  const Profile& cuda12 = builtin_profile("cuda12");
  // 5103 is one launch in float; 5104 = 2^4 x 11 x 29 is not smooth; 5120 needs two.
  EXPECT_EQ(kernel_estimate(5103, cuda12, Precision::F32), 1);
  EXPECT_EQ(kernel_estimate(5104, cuda12, Precision::F32), kBadKernels);
  EXPECT_EQ(kernel_estimate(2187, cuda12, Precision::F64), 1);
  EXPECT_EQ(kernel_estimate(2200, cuda12, Precision::F64), 3); // 2^3 x 5^2 x 11 above 2187
  // Greedy chunks: 2^33 = three chunks of at most 11.
  EXPECT_EQ(kernel_estimate(index_t{1} << 33, cuda12, Precision::F32), 3);
  EXPECT_EQ(kernel_estimate(index_t{1} << 34, cuda12, Precision::F32), 4);
}

TEST(HeuristicKernelModel, NonSmoothIsFiniteAndUnitIsZero) {
  for (const std::string& name : builtin_profile_names()) {
    const Profile& p = builtin_profile(name);
    EXPECT_EQ(kernel_estimate(2273, p, Precision::F32), kBadKernels) << name; // prime
    EXPECT_EQ(kernel_estimate(1, p, Precision::F32), 0) << name;
    // Sums of three bad dimensions stay far from overflow (defect 4 of
    // docs/fft_advisor.md#defects-of-the-reference-we-do-not-copy).
    EXPECT_LT(3 * kernel_estimate(2273, p, Precision::F64), 1 << 20);
  }
}

TEST(HeuristicKernelModel, PortableIsCuda12WithoutEleven) {
  const Profile& portable = builtin_profile("portable");
  const Profile& cuda12 = builtin_profile("cuda12");
  EXPECT_FALSE(is_smooth(10648, portable));
  for (index_t m : {2, 630, 2401, 4096, 5103, 5120, 6000, 6561, 8192, 1 << 22, 1 << 23})
    for (Precision prec : {Precision::F32, Precision::F64})
      EXPECT_EQ(kernel_estimate(m, portable, prec), kernel_estimate(m, cuda12, prec)) << m;
}

TEST(HeuristicKernelModel, FftwCountsEveryAdmissibleSizeOnce) {
  const Profile& fftw = builtin_profile("fftw");
  EXPECT_TRUE(is_smooth(1001 * 2, fftw) == false); // 7 x 11 x 13: two extra primes
  EXPECT_TRUE(is_smooth(2 * 7 * 11, fftw));
  EXPECT_TRUE(is_smooth(2 * 7 * 13, fftw));
  EXPECT_FALSE(is_smooth(2 * 11 * 11, fftw)); // the extra prime at most once
  EXPECT_FALSE(is_smooth(17 * 4, fftw));
  EXPECT_EQ(kernel_estimate(1 << 20, fftw, Precision::F32), 1);
  EXPECT_EQ(kernel_estimate(2 * 3 * 5 * 7 * 13, fftw, Precision::F64), 1);
  EXPECT_EQ(kernel_estimate(17 * 4, fftw, Precision::F32), kBadKernels);
}

TEST(HeuristicProfiles, ConstantsOfSection43) {
  const Profile& cuda12 = builtin_profile("cuda12");
  EXPECT_EQ(cuda12.version, "cuda12-r1");
  EXPECT_EQ(cuda12.primes, (std::vector<int>{2, 3, 5, 7, 11}));
  EXPECT_EQ(cuda12.regular_limit[0], 5103);
  EXPECT_EQ(cuda12.regular_limit[1], 2187);
  EXPECT_EQ(cuda12.caps[0], (std::map<int, int>{{2, 11}, {3, 7}, {5, 4}, {7, 3}, {11, 3}}));
  EXPECT_EQ(cuda12.caps[1], (std::map<int, int>{{2, 11}, {3, 6}, {5, 5}, {7, 4}, {11, 3}}));
  EXPECT_EQ(cuda12.real_rule, EvenRule::AboveRegular);
  const Profile& cuda8 = builtin_profile("cuda8");
  EXPECT_EQ(cuda8.primes, (std::vector<int>{2, 3, 5, 7}));
  EXPECT_EQ(cuda8.regular_limit[0], 0);
  EXPECT_EQ(cuda8.caps[0], (std::map<int, int>{{2, 10}, {3, 6}, {5, 3}, {7, 3}}));
  EXPECT_EQ(cuda8.caps[1], (std::map<int, int>{{2, 9}, {3, 5}, {5, 3}, {7, 3}}));
  EXPECT_EQ(cuda8.complex_rule, EvenRule::Always);
  const Profile& portable = builtin_profile("portable");
  EXPECT_EQ(portable.real_rule, EvenRule::Always);
  EXPECT_EQ(portable.complex_rule, EvenRule::AboveRegular);
  const Profile& fftw = builtin_profile("fftw");
  EXPECT_FALSE(fftw.has_kernel_model);
  EXPECT_EQ(fftw.single_extra_primes, (std::vector<int>{11, 13}));
  EXPECT_EQ(fftw.complex_rule, EvenRule::Never);
  EXPECT_EQ(builtin_profile_names(), (std::vector<std::string>{"cuda12", "cuda8", "portable", "fftw"}));
}

TEST(HeuristicProfiles, UnknownNameIsUsageError) {
  try {
    builtin_profile("cuda99");
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
  }
}

TEST(HeuristicKernelModel, TermsAndPowersOfTwo) {
  EXPECT_EQ(terms(630), 4);
  EXPECT_EQ(terms(10648), 1); // 11 is not a documented term
  EXPECT_EQ(terms(2304), 2);
  EXPECT_EQ(terms(1), 0);
  EXPECT_EQ(next_power_of_two(1), 1);
  EXPECT_EQ(next_power_of_two(2), 2);
  EXPECT_EQ(next_power_of_two(3), 4);
  EXPECT_EQ(next_power_of_two(2273), 4096);
  EXPECT_EQ(next_power_of_two(4096), 4096);
  EXPECT_EQ(next_power_of_two(4097), 8192);
  EXPECT_EQ(next_power_of_two((index_t{1} << 40) + 1), index_t{1} << 41);
}

} // namespace
} // namespace frost::fft
