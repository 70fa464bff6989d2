#pragma once
/// @file run_ranks.hpp
/// @brief The MPI frame of a program's run: an MPI session when the launcher started several
/// ranks, the work of this rank, and on failure one abort that ends every rank with the error's
/// exit code (the other ranks would otherwise wait forever in their next collective call).
/// Header only, so that builds without MPI (FROST_HAVE_MPI=0) need not link frost::mpi.
#include <exception>
#include <memory>
#include <string>

#include "frost/core/error.hpp"
#if FROST_HAVE_MPI
#include "frost/mpi/collectives.hpp"
#include "frost/mpi/session.hpp"
#endif

namespace frost::mpi {

/// @brief Runs `body(rank, size)` on this rank of a job of `ranks` launcher ranks (1: no MPI).
/// Several ranks in a build without MPI are a usage error.
template <class Body>
int run_ranks(int ranks, const Body& body) {
#if FROST_HAVE_MPI
  std::unique_ptr<Session> session;
  if (ranks > 1) session = std::make_unique<Session>();
  try {
    return body(session ? session->rank() : 0, session ? session->size() : 1);
  } catch (const Error& e) {
    if (session && session->size() > 1) abort_with_message(e.what(), static_cast<int>(e.code()));
    throw;
  } catch (const std::exception& e) {
    if (session && session->size() > 1) abort_with_message(e.what(), 1);
    throw;
  }
#else
  if (ranks > 1) throw_usage_error("started with " + std::to_string(ranks) + " MPI ranks but frost was built without MPI");
  return body(0, 1);
#endif
}

} // namespace frost::mpi
