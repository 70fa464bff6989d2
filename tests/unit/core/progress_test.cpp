// Progress text follows the documented line format and counts from many threads.
#include <regex>

#include "frost/core/error.hpp"
#include "frost/core/progress.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

TEST(Progress, LineFormat) {
  Progress p("frost_test", 5000, "images", ProgressMode::None);
  p.advance(1200);
  const std::string l = p.line();
  EXPECT_TRUE(std::regex_match(l, std::regex(R"(\[frost_test\] 1200/5000 images 24\.0% elapsed [0-9.]+ s eta [0-9.]+ s)")))
      << l;
}

TEST(Progress, ThreadSafeAdvance) {
  Progress p("t", 10000, "items", ProgressMode::None);
#pragma omp parallel for
  for (int i = 0; i < 10000; ++i) p.advance();
  EXPECT_EQ(p.done(), 10000);
}

TEST(Progress, ModeParsing) {
  EXPECT_EQ(parse_progress_mode("lines"), ProgressMode::Lines);
  EXPECT_THROW(parse_progress_mode("loud"), Error);
}

} // namespace
} // namespace frost
