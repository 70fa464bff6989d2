#pragma once
// Runs a callable that must throw frost::Error of a given class; returns the message.
#include <string>

#include "frost/core/error.hpp"
#include "frost/test/support.hpp"

namespace frost::test {

template <class F>
std::string error_message(F&& f, ExitCode expected = ExitCode::Input) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(static_cast<int>(e.code()), static_cast<int>(expected)) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "expected a frost::Error";
  return {};
}

} // namespace frost::test
