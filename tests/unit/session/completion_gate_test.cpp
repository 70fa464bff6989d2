// When a watched file may be read: closed or stable, and whole (docs/session.md#completeness).
#include <gtest/gtest.h>

#include <fstream>

#include "frost/io/mrc_header.hpp"
#include "frost/session/completion_gate.hpp"
#include "frost/test/support.hpp"

namespace frost::session {
namespace {

using GateClock = CompletionGate::Clock;

/// Writes the first `frames` of a 4-frame 4 x 4 float MRC movie.
void write_partial_mrc(const std::string& path, int frames) {
  io::MrcHeader h;
  h.nx = 4;
  h.ny = 4;
  h.nz = 4;
  const auto head = io::serialize_mrc_header(h);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(head.data()), static_cast<std::streamsize>(head.size()));
  const std::string frame(4 * 4 * 4, '\0');
  for (int i = 0; i < frames; ++i) out.write(frame.data(), static_cast<std::streamsize>(frame.size()));
}

TEST(SessionCompletionGate, StableSizeIsWaitedFor) {
  test::TempDir dir;
  const std::string path = dir.file("m.mrc");
  write_partial_mrc(path, 4);
  CompletionGate gate(2.0);
  const GateClock::time_point t0 = GateClock::now();
  EXPECT_EQ(gate.check(path, t0).status, Completeness::NotYet) << "first sight: not yet stable";
  EXPECT_EQ(gate.check(path, t0 + std::chrono::milliseconds(1500)).status, Completeness::NotYet);
  EXPECT_EQ(gate.check(path, t0 + std::chrono::milliseconds(2100)).status, Completeness::Complete);
}

TEST(SessionCompletionGate, GrowingFileRestartsTheClock) {
  test::TempDir dir;
  const std::string path = dir.file("m.mrc");
  write_partial_mrc(path, 2);
  CompletionGate gate(1.0);
  const GateClock::time_point t0 = GateClock::now();
  gate.check(path, t0);
  write_partial_mrc(path, 3);
  EXPECT_EQ(gate.check(path, t0 + std::chrono::milliseconds(1500)).status, Completeness::NotYet)
      << "the size changed at 1.5 s: the clock restarts";
  // Stable but short: the structure says truncated.
  const CompletenessResult r = gate.check(path, t0 + std::chrono::milliseconds(2600));
  EXPECT_EQ(r.status, Completeness::Truncated);
  EXPECT_NE(r.reason.find("3 whole frames"), std::string::npos) << r.reason;
}

TEST(SessionCompletionGate, ClosedFileSkipsTheWaitButNotTheStructure) {
  test::TempDir dir;
  const std::string path = dir.file("m.mrc");
  write_partial_mrc(path, 2);
  CompletionGate gate(60.0);
  gate.mark_closed(path); // a writer that closes between chunks
  EXPECT_EQ(gate.check(path).status, Completeness::Truncated);
  write_partial_mrc(path, 4);
  EXPECT_EQ(gate.check(path).status, Completeness::NotYet) << "written after the close: the close no longer counts";
  gate.mark_closed(path);
  EXPECT_EQ(gate.check(path).status, Completeness::Complete);
  gate.forget(path);
  EXPECT_EQ(gate.tracked(), 0u);
}

TEST(SessionCompletionGate, MissingAndEmptyFilesAreNotYet) {
  test::TempDir dir;
  CompletionGate gate(0.0);
  EXPECT_EQ(gate.check(dir.file("absent.mrc")).status, Completeness::NotYet);
  std::ofstream(dir.file("empty.mrc")).close();
  EXPECT_EQ(gate.check(dir.file("empty.mrc")).status, Completeness::NotYet);
}

} // namespace
} // namespace frost::session
