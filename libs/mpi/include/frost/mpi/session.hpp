#pragma once
/// @file session.hpp
/// @brief MPI for the lifetime of a program: initialise once, finalise at the end.
#include <mpi.h>

#include <string>

namespace frost::mpi {

/// @brief How many threads may call MPI (MPI_THREAD_* in increasing order).
enum class ThreadSupport { Single, Funneled, Serialized, Multiple };

/// @brief RAII owner of MPI_Init_thread / MPI_Finalize.
///
/// Started without mpirun, the program runs as a single rank (MPI singleton start). When MPI
/// is already initialised (by another Session or by a library), the session only reads rank
/// and size and leaves finalisation to whoever initialised it. On an error in a run with
/// several ranks, call abort_with_message() rather than letting the Session finalise: the
/// other ranks would wait forever in their next collective call.
class Session {
public:
  /// @brief Initialises MPI, requesting `required` thread support. frost::Error(Runtime) when
  /// the library provides less (MPI is finalised again first).
  explicit Session(int* argc = nullptr, char*** argv = nullptr, ThreadSupport required = ThreadSupport::Funneled);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  bool is_root() const noexcept { return rank_ == 0; }
  /// @brief The thread support the library provides.
  ThreadSupport thread_support() const noexcept { return provided_; }
  MPI_Comm comm() const noexcept { return MPI_COMM_WORLD; }
  void barrier() const;

  /// @brief True between MPI initialisation and finalisation (by anyone).
  static bool active() noexcept;

private:
  bool owns_ = false;
  int rank_ = 0;
  int size_ = 1;
  ThreadSupport provided_ = ThreadSupport::Single;
};

} // namespace frost::mpi

namespace frost::mpi {
/// The MPI library's own one-line version (e.g. "Open MPI v4.1.4"); callable before MPI_Init.
std::string library_version();
} // namespace frost::mpi
