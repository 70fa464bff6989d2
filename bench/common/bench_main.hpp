#pragma once
// The main() of a benchmark program: run it, report frost and library errors in one line with
// the program's name, and exit with frost's exit codes.
#include <cstdio>
#include <exception>

#include "frost/core/error.hpp"

namespace frost::bench {

template <class Run>
int bench_main(const char* program, Run&& run) {
  try {
    return run();
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return 1;
  }
}

} // namespace frost::bench
