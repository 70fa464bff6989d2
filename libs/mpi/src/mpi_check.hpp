#pragma once
// Internal to frost_mpi: turns a failed MPI call into frost::Error with MPI's own message.
#include <mpi.h>

#include <string>

#include "frost/core/error.hpp"

namespace frost::mpi::detail {

inline void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  FROST_THROW(ExitCode::Runtime, std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

} // namespace frost::mpi::detail
