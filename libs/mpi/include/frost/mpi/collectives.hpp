#pragma once
/// @file collectives.hpp
/// @brief The few collective operations frost needs, safe for buffers of any size.
///
/// MPI counts are `int`, so buffers are moved in chunks (at most 256 MiB and never more than
/// INT_MAX elements per call, as the reduction of
/// docs/reconstruct_fourier.md#mpi-and-multi-gpu-reduction needs). Failures throw
/// frost::Error(Runtime) naming the call (with MPI's default error handler MPI aborts first).
#include <mpi.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace frost::mpi {

/// @brief Elements of `bytes_per_element` moved per MPI call by default: 256 MiB worth,
/// capped at INT_MAX.
std::size_t default_chunk_elements(std::size_t bytes_per_element) noexcept;

/// @brief Sums `data[0..count)` over all ranks into `root`'s buffer (in place there; the other
/// ranks' buffers are left unchanged). `max_chunk` = elements per call (0: the default).
void reduce_sum_in_place(float* data, std::size_t count, int root, MPI_Comm comm = MPI_COMM_WORLD,
                         std::size_t max_chunk = 0);
void reduce_sum_in_place(double* data, std::size_t count, int root, MPI_Comm comm = MPI_COMM_WORLD,
                         std::size_t max_chunk = 0);
/// @brief Sums over all ranks into every rank's buffer.
void allreduce_sum_in_place(float* data, std::size_t count, MPI_Comm comm = MPI_COMM_WORLD, std::size_t max_chunk = 0);
void allreduce_sum_in_place(double* data, std::size_t count, MPI_Comm comm = MPI_COMM_WORLD,
                            std::size_t max_chunk = 0);

/// @brief Assembles a row-major matrix of `rows` rows of `row_length` floats on `root` from its
/// column blocks: every rank holds the columns [first, first + count) of every row, contiguous
/// (`local`, rows x count; count may be 0); on `root`, `full` (rows x row_length) receives every
/// rank's block in place, its own included. The root receives each float once and the other ranks
/// never hold more than their block, unlike a sum of whole matrices. Blocks must not overlap;
/// columns no rank holds are left as they were. `full` is ignored on the other ranks.
/// `max_chunk` = floats per message (0: the default).
void gather_columns(const float* local, std::size_t rows, std::size_t first, std::size_t count, float* full,
                    std::size_t row_length, int root, MPI_Comm comm = MPI_COMM_WORLD, std::size_t max_chunk = 0);

/// @brief Copies `bytes` bytes from `root` to every rank.
void broadcast_bytes(void* data, std::size_t bytes, int root, MPI_Comm comm = MPI_COMM_WORLD);

/// @brief Broadcasts one trivially copyable value.
template <class T>
void broadcast(T& value, int root, MPI_Comm comm = MPI_COMM_WORLD) {
  static_assert(std::is_trivially_copyable_v<T>, "broadcast of a type that is not trivially copyable");
  broadcast_bytes(&value, sizeof(T), root, comm);
}

/// @brief Broadcasts a vector of trivially copyable values (the size travels too).
template <class T>
void broadcast(std::vector<T>& values, int root, MPI_Comm comm = MPI_COMM_WORLD) {
  static_assert(std::is_trivially_copyable_v<T>, "broadcast of a type that is not trivially copyable");
  unsigned long long n = values.size();
  broadcast_bytes(&n, sizeof n, root, comm);
  values.resize(static_cast<std::size_t>(n));
  broadcast_bytes(values.data(), values.size() * sizeof(T), root, comm);
}

/// @brief Broadcasts a string (the length travels too).
void broadcast(std::string& text, int root, MPI_Comm comm = MPI_COMM_WORLD);

/// @brief Every rank's string, in rank order, on `root` (an empty vector on the other ranks).
std::vector<std::string> gather_strings(const std::string& local, int root = 0, MPI_Comm comm = MPI_COMM_WORLD);

/// @brief Prints "error: rank R of N: message" as one line on stderr and ends every rank
/// with `code` (MPI_Abort; plain exit when MPI is not running).
[[noreturn]] void abort_with_message(const std::string& message, int code = 1, MPI_Comm comm = MPI_COMM_WORLD);

} // namespace frost::mpi
