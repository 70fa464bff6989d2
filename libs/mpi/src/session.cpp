#include "frost/mpi/session.hpp"

#include <string>

#include "frost/core/error.hpp"
#include "mpi_check.hpp"

namespace frost::mpi {

namespace {

using detail::check;

int to_mpi(ThreadSupport level) {
  switch (level) {
  case ThreadSupport::Single: return MPI_THREAD_SINGLE;
  case ThreadSupport::Funneled: return MPI_THREAD_FUNNELED;
  case ThreadSupport::Serialized: return MPI_THREAD_SERIALIZED;
  case ThreadSupport::Multiple: return MPI_THREAD_MULTIPLE;
  }
  return MPI_THREAD_SINGLE;
}

ThreadSupport from_mpi(int level) {
  if (level >= MPI_THREAD_MULTIPLE) return ThreadSupport::Multiple;
  if (level >= MPI_THREAD_SERIALIZED) return ThreadSupport::Serialized;
  if (level >= MPI_THREAD_FUNNELED) return ThreadSupport::Funneled;
  return ThreadSupport::Single;
}

} // namespace

bool Session::active() noexcept {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized != 0 && finalized == 0;
}

Session::Session(int* argc, char*** argv, ThreadSupport required) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  FROST_EXPECTS(finalized == 0, "MPI was already finalised; it cannot be started again");
  int provided = MPI_THREAD_SINGLE;
  if (active()) {
    check(MPI_Query_thread(&provided), "MPI_Query_thread");
  } else {
    check(MPI_Init_thread(argc, argv, to_mpi(required), &provided), "MPI_Init_thread");
    owns_ = true;
  }
  provided_ = from_mpi(provided);
  if (provided < to_mpi(required)) {
    if (owns_) MPI_Finalize();
    FROST_THROW(ExitCode::Runtime, "the MPI library provides thread level " + std::to_string(provided) +
                                       ", frost needs " + std::to_string(to_mpi(required)));
  }
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
}

Session::~Session() {
  if (owns_ && active()) MPI_Finalize();
}

void Session::barrier() const { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

} // namespace frost::mpi

namespace frost::mpi {

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  if (MPI_Get_library_version(text, &length) != MPI_SUCCESS) return "MPI (version unknown)";
  std::string v(text, static_cast<std::size_t>(length));
  const auto end = v.find_first_of(",\n"); // first clause only: "Open MPI v4.1.4"
  return v.substr(0, end);
}

} // namespace frost::mpi
